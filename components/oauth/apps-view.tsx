"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Input, PageHeader, Textarea } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { CopyButton } from "@/components/ui/copy-button";
import { ConfirmDialog, Dialog, DialogClose } from "@/components/ui/dialog";
import { Form, FormError, FormField, FormFieldset, showServerError, useZodForm } from "@/components/ui/form";
import { Menu } from "@/components/ui/menu";
import { toast } from "@/components/ui/toaster";
import { scopeDescriptions, scopes, type Scope } from "@/server/auth/scopes";
import type { PresentedApp } from "@/server/oauth/present";

type AppFields = { name: string; redirect_uris: string[]; scopes: Scope[]; public: boolean };

const appForm = z.object({
  name: z.string(),
  // One a line.
  redirect_uris: z.string().transform((text) => text.split(/\s+/).filter(Boolean)),
  type: z.enum(["confidential", "public"]),
  scopes: z.array(z.enum(scopes)),
});
type AppForm = z.input<typeof appForm>;

/** Name, redirect URIs (one per line), allowed scopes and, for a new app, its type; `onSubmit` makes the call, its refusal shown at the field it names. */
function AppForm({ initial, isNew, onSubmit }: { initial?: PresentedApp; isNew: boolean; onSubmit: (v: AppFields) => Promise<unknown> }) {
  const form = useZodForm(appForm, {
    defaultValues: {
      name: initial?.name ?? "",
      redirect_uris: initial?.redirect_uris.join("\n") ?? "",
      type: initial?.public ? "public" : "confidential",
      scopes: scopes.filter((scope) => (initial ? initial.scopes.includes(scope) : scope.endsWith(":read"))),
    },
  });
  const submit = (v: z.output<typeof appForm>) =>
    onSubmit({ name: v.name, redirect_uris: v.redirect_uris, scopes: v.scopes, public: v.type === "public" }).catch((e: unknown) => showServerError<AppForm>(form, e));
  return (
    <Form form={form} onSubmit={submit} className="space-y-4">
      <FormError />
      <FormField<AppForm> name="name" label="Name" hint="Shown to owners on the consent page.">
        {(control) => <Input {...control} required maxLength={100} />}
      </FormField>
      <FormField<AppForm> name="redirect_uris" label="Redirect URIs" hint="One per line. Exact match only; https, or http on localhost/127.0.0.1.">
        {(control) => <Textarea {...control} rows={3} required className="font-mono text-xs" />}
      </FormField>
      {isNew ? (
        <FormFieldset<AppForm> name="type" legend="Type" legendClassName="text-sm font-medium text-stone-800">
          <div className="mt-1 space-y-1 text-sm">
            <label className="flex items-start gap-2">
              <input type="radio" value="confidential" {...form.register("type")} className="mt-1" />
              <span>Confidential: runs on a server and keeps a client secret.</span>
            </label>
            <label className="flex items-start gap-2">
              <input type="radio" value="public" {...form.register("type")} className="mt-1" />
              <span>Public: a mobile or single-page app; no secret, PKCE required.</span>
            </label>
          </div>
        </FormFieldset>
      ) : null}
      <FormFieldset<AppForm> name="scopes" legend="Allowed scopes" legendClassName="text-sm font-medium text-stone-800">
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {scopes.map((scope) => (
            <label key={scope} className="flex items-start gap-2 text-sm">
              <input type="checkbox" value={scope} {...form.register("scopes")} className="mt-1" />
              <span>
                <span className="font-mono text-xs">{scope}</span>
                <span className="block text-xs text-stone-500">{scopeDescriptions[scope]}</span>
              </span>
            </label>
          ))}
        </div>
      </FormFieldset>
      <div className="flex justify-end">
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Saving…" : isNew ? "Register app" : "Save changes"}
        </Button>
      </div>
    </Form>
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
            { label: "Edit", onSelect: () => setEditing(row.original) },
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
        actions={<Button onClick={() => setCreating(true)}>Register app</Button>}
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
        <AppForm isNew onSubmit={(v) => create.mutateAsync(v)} />
      </Dialog>
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} title={`Edit ${editing?.name ?? "app"}`} size="lg">
        {editing ? (
          <AppForm
            initial={editing}
            isNew={false}
            onSubmit={(v) => update.mutateAsync({ id: editing.id, name: v.name, redirect_uris: v.redirect_uris, scopes: v.scopes })}
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
