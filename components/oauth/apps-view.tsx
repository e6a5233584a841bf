"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Badge, Button, Field, Input, PageHeader, Textarea } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { CopyButton } from "@/components/ui/copy-button";
import { ConfirmDialog, Dialog, DialogClose } from "@/components/ui/dialog";
import { Menu } from "@/components/ui/menu";
import { toast } from "@/components/ui/toaster";
import { scopeDescriptions, scopes, type Scope } from "@/server/auth/scopes";
import type { PresentedApp } from "@/server/oauth/present";

type AppFields = { name: string; redirect_uris: string[]; scopes: Scope[]; public: boolean };

/** Name, redirect URIs (one per line), allowed scopes and, for a new app, its type. */
function AppForm({ initial, isNew, pending, error, onSubmit }: { initial?: PresentedApp; isNew: boolean; pending: boolean; error: string | null; onSubmit: (v: AppFields) => void }) {
  const [publicApp, setPublicApp] = useState(initial?.public ?? false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onSubmit({
      name: String(form.get("name") ?? ""),
      redirect_uris: String(form.get("redirect_uris") ?? "").split(/\s+/).filter(Boolean),
      scopes: form.getAll("scope").map(String) as Scope[],
      public: publicApp,
    });
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      {error ? <Alert>{error}</Alert> : null}
      <Field label="Name" htmlFor="app-name" hint="Shown to owners on the consent page.">
        <Input id="app-name" name="name" required maxLength={100} defaultValue={initial?.name} />
      </Field>
      <Field label="Redirect URIs" htmlFor="app-redirects" hint="One per line. Exact match only; https, or http on localhost/127.0.0.1.">
        <Textarea id="app-redirects" name="redirect_uris" rows={3} required defaultValue={initial?.redirect_uris.join("\n")} className="font-mono text-xs" />
      </Field>
      {isNew ? (
        <fieldset>
          <legend className="text-sm font-medium text-stone-800">Type</legend>
          <div className="mt-1 space-y-1 text-sm">
            <label className="flex items-start gap-2">
              <input type="radio" name="type" checked={!publicApp} onChange={() => setPublicApp(false)} className="mt-1" />
              <span>Confidential: runs on a server and keeps a client secret.</span>
            </label>
            <label className="flex items-start gap-2">
              <input type="radio" name="type" checked={publicApp} onChange={() => setPublicApp(true)} className="mt-1" />
              <span>Public: a mobile or single-page app; no secret, PKCE required.</span>
            </label>
          </div>
        </fieldset>
      ) : null}
      <fieldset>
        <legend className="text-sm font-medium text-stone-800">Allowed scopes</legend>
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {scopes.map((scope) => (
            <label key={scope} className="flex items-start gap-2 text-sm">
              <input type="checkbox" name="scope" value={scope} defaultChecked={initial ? initial.scopes.includes(scope) : scope.endsWith(":read")} className="mt-1" />
              <span>
                <span className="font-mono text-xs">{scope}</span>
                <span className="block text-xs text-stone-500">{scopeDescriptions[scope]}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : isNew ? "Register app" : "Save changes"}
        </Button>
      </div>
    </form>
  );
}

/** The one time a secret is visible. */
function SecretOnce({ secret, clientId, onClose }: { secret: { value: string | null; clientId: string } | null; clientId?: string; onClose: () => void }) {
  return (
    <Dialog
      open={secret !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Copy your credentials now"
      description="The secret is shown only this once. Store it with your app."
      dismissible={false}
    >
      {secret ? (
        <dl className="space-y-3 text-sm">
          <div>
            <dt className="font-medium text-stone-700">client_id</dt>
            <dd className="mt-1 break-all rounded bg-stone-100 px-2 py-1 font-mono text-xs" data-testid="client-id">{secret.clientId ?? clientId}</dd>
          </div>
          {secret.value ? (
            <div>
              <dt className="font-medium text-stone-700">client_secret</dt>
              <dd className="mt-1 break-all rounded bg-amber-50 px-2 py-1 font-mono text-xs" data-testid="client-secret">{secret.value}</dd>
            </div>
          ) : (
            <p className="text-stone-600">A public app has no secret: it proves itself with PKCE.</p>
          )}
        </dl>
      ) : null}
      {secret ? (
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <CopyButton text={secret.clientId ?? clientId ?? ""} label="Copy client_id" />
          {secret.value ? <CopyButton text={secret.value} label="Copy client_secret" /> : null}
          <DialogClose asChild>
            <Button>{secret.value ? "I have stored the secret" : "Done"}</Button>
          </DialogClose>
        </div>
      ) : null}
    </Dialog>
  );
}

/** OAuth apps of the account: register, edit redirect URIs and scopes, rotate the secret, delete. */
export function AppsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.oauth.apps.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<PresentedApp | null>(null);
  const [rotating, setRotating] = useState<PresentedApp | null>(null);
  const [deleting, setDeleting] = useState<PresentedApp | null>(null);
  const [secret, setSecret] = useState<{ value: string | null; clientId: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.oauth.apps.list.queryFilter());

  const create = useMutation(
    trpc.oauth.apps.create.mutationOptions({
      onSuccess: async (result) => {
        setCreating(false);
        setSecret({ value: result.client_secret, clientId: result.app.client_id });
        await refresh();
      },
    }),
  );
  const update = useMutation(
    trpc.oauth.apps.update.mutationOptions({
      onSuccess: async () => {
        setEditing(null);
        toast.success("App saved");
        await refresh();
      },
    }),
  );
  const rotate = useMutation(
    trpc.oauth.apps.rotateSecret.mutationOptions({
      onSuccess: async (result) => {
        setRotating(null);
        setSecret({ value: result.client_secret, clientId: result.app.client_id });
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.oauth.apps.delete.mutationOptions({
      onSuccess: async () => {
        setDeleting(null);
        toast.success("App deleted; its installs were revoked");
        await refresh();
      },
    }),
  );

  const columns: ColumnDef<PresentedApp>[] = [
    {
      header: "App",
      meta: { primary: true },
      cell: ({ row }) => (
        <div className="min-w-0">
          <p className="font-medium text-stone-900">{row.original.name}</p>
          <p className="break-all font-mono text-xs text-stone-500">{row.original.client_id}</p>
        </div>
      ),
    },
    { header: "Type", cell: ({ row }) => (row.original.public ? <Badge tone="violet">Public</Badge> : <Badge tone="teal">Confidential</Badge>) },
    { header: "Redirect URIs", cell: ({ row }) => <ul className="space-y-0.5 break-all font-mono text-xs">{row.original.redirect_uris.map((u) => <li key={u}>{u}</li>)}</ul> },
    { header: "Scopes", cell: ({ row }) => <span className="text-xs text-stone-600">{row.original.scopes.join(", ")}</span> },
    {
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) => (
        <Menu
          label={`Actions for ${row.original.name}`}
          trigger={<Button variant="ghost" aria-label={`Actions for ${row.original.name}`}>•••</Button>}
          items={[
            { label: "Edit", onSelect: () => (update.reset(), setEditing(row.original)) },
            { label: "Rotate secret", onSelect: () => (rotate.reset(), setRotating(row.original)), disabled: row.original.public },
            { label: "Delete", onSelect: () => (remove.reset(), setDeleting(row.original)), danger: true },
          ]}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="OAuth apps"
        description="Apps your team builds on Innkeep. Hotels install them through the consent page."
        actions={<Button onClick={() => (create.reset(), setCreating(true))}>Register app</Button>}
      />
      <DataTable
        label="OAuth apps"
        columns={columns}
        data={list.data}
        loading={list.isLoading}
        error={list.error ? callError(list.error).message : null}
        onRetry={() => list.refetch()}
        rowKey={(a) => a.id}
        empty={{ title: "No apps yet", children: "Register an app to get a client_id for the OAuth flow.", action: <Button onClick={() => setCreating(true)}>Register app</Button> }}
      />
      <Dialog open={creating} onOpenChange={setCreating} title="Register an OAuth app" size="lg">
        <AppForm isNew pending={create.isPending} error={create.error ? callError(create.error).message : null} onSubmit={(v) => create.mutate(v)} />
      </Dialog>
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} title={`Edit ${editing?.name ?? "app"}`} size="lg">
        {editing ? (
          <AppForm
            initial={editing}
            isNew={false}
            pending={update.isPending}
            error={update.error ? callError(update.error).message : null}
            onSubmit={(v) => update.mutate({ id: editing.id, name: v.name, redirect_uris: v.redirect_uris, scopes: v.scopes })}
          />
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={rotating !== null}
        onOpenChange={(open) => !open && setRotating(null)}
        title={`Rotate the secret of ${rotating?.name ?? "this app"}?`}
        description="The current secret stops working at once. Tokens already issued keep working."
        confirmLabel="Rotate secret"
        danger
        pending={rotate.isPending}
        error={rotate.error ? callError(rotate.error).message : null}
        onConfirm={() => rotating && rotate.mutate({ id: rotating.id })}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete ${deleting?.name ?? "this app"}?`}
        description="Every install of it is revoked and all its tokens stop working at once."
        confirmLabel="Delete app"
        danger
        pending={remove.isPending}
        error={remove.error ? callError(remove.error).message : null}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      />
      <SecretOnce secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
