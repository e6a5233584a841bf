"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { z } from "zod";
import { AuditTrail } from "@/components/audit/audit-trail";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Input, PageHeader, Textarea } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { ConfirmDialog, Dialog, DialogClose, DialogActions } from "@/components/ui/dialog";
import { Form, FormError, FormField, FormFieldset, showServerError, useZodForm } from "@/components/ui/form";
import { toast } from "@/components/ui/toaster";
import { scopeDescriptions, scopes } from "@/server/auth/scopes";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { CopyButton, relative, When } from "./common";

type Key = inferRouterOutputs<AppRouter>["developers"]["apiKeys"]["list"][number];

const keyForm = z.object({
  name: z.string().trim(),
  scopes: z.array(z.enum(scopes)).min(1, "Choose at least one scope."),
  // One address or range a line (or separated by commas or spaces).
  allowed_ips: z.string().transform((text) => text.split(/[\s,]+/).filter(Boolean)),
});
type KeyForm = z.input<typeof keyForm>;

function CreateKeyForm({ onCreated }: { onCreated: (key: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(keyForm, { defaultValues: { name: "", scopes: [], allowed_ips: "" } });
  const create = useMutation(
    trpc.developers.apiKeys.create.mutationOptions({
      onSuccess: async (k) => {
        await queryClient.invalidateQueries(trpc.developers.apiKeys.list.queryFilter());
        onCreated(k.key);
      },
      onError: (e) => showServerError<KeyForm>(form, e),
    }),
  );
  return (
    <Form form={form} onSubmit={(v) => create.mutate({ name: v.name || undefined, scopes: v.scopes, allowed_ips: v.allowed_ips })} aria-label="New API key" className="space-y-4">
      <FormField<KeyForm> name="name" label="Name (optional)" hint="Say what uses it: “Channel manager”, “Revenue dashboard”.">
        {(control) => <Input {...control} maxLength={100} />}
      </FormField>
      <FormFieldset<KeyForm> name="scopes" legend="Scopes (a write scope does not include reading)" legendClassName="mb-1 text-xs font-medium text-stone-600">
        <div className="grid gap-1.5 sm:grid-cols-2">
          {scopes.map((s) => (
            <label key={s} className="flex items-start gap-2 text-sm">
              <input type="checkbox" className="mt-0.5 h-4 w-4 accent-teal-700" value={s} {...form.register("scopes")} />
              <span>
                <span className="font-mono text-xs text-stone-900">{s}</span>
                <span className="block text-xs text-stone-500">{scopeDescriptions[s]}</span>
              </span>
            </label>
          ))}
        </div>
      </FormFieldset>
      <FormField<KeyForm> name="allowed_ips" label="Allowed IP addresses (optional)" hint="One IPv4/IPv6 address or CIDR range per line. Empty: any address.">
        {(control) => <Textarea {...control} rows={3} className="font-mono" placeholder={"203.0.113.0/24\n2001:db8::/32"} />}
      </FormField>
      <FormError />
      <DialogActions label="Create key" pendingLabel="Creating…" pending={create.isPending} />
    </Form>
  );
}

function RevokeButton({ k }: { k: Key }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const revoke = useMutation(
    trpc.developers.apiKeys.revoke.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast.success("Key revoked; the API refuses it from now on.");
        await queryClient.invalidateQueries(trpc.developers.apiKeys.list.queryFilter());
        await queryClient.invalidateQueries(trpc.audit.list.queryFilter());
      },
    }),
  );
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => {
        revoke.reset();
        setOpen(o);
      }}
      trigger={
        <Button variant="ghost" className="px-2 py-1 text-xs text-red-700" aria-label={`Revoke ${k.name ?? k.prefix}`}>
          Revoke
        </Button>
      }
      title="Revoke this API key?"
      description={
        <>
          Every request with <span className="font-mono">{k.prefix}…</span>
          {k.name ? ` (${k.name})` : ""} is refused with 401 from now on. This cannot be undone.
        </>
      }
      confirmLabel="Revoke key"
      danger
      pending={revoke.isPending}
      error={revoke.error ? callError(revoke.error).message : null}
      onConfirm={() => revoke.mutate({ id: k.id })}
    />
  );
}

function HistoryButton({ k }: { k: Key }) {
  return (
    <Dialog
      title={`History of ${k.name ?? k.prefix}`}
      trigger={
        <Button variant="ghost" className="px-2 py-1 text-xs" aria-label={`History of ${k.name ?? k.prefix}`}>
          History
        </Button>
      }
    >
      <AuditTrail objectType="api_key" objectId={k.id} />
    </Dialog>
  );
}

const columns: ColumnDef<Key>[] = [
  {
    id: "name",
    header: "Key",
    meta: { primary: true },
    cell: ({ row: { original: k } }) => (
      <span className="min-w-0">
        <span className="font-medium text-stone-900">{k.name ?? "Unnamed key"}</span>
        <span className="block font-mono text-xs text-stone-500">{k.prefix}…</span>
      </span>
    ),
  },
  {
    id: "status",
    header: "Status",
    cell: ({ row: { original: k } }) =>
      k.revoked_at ? (
        <Badge tone="red">
          Revoked <When at={k.revoked_at} />
        </Badge>
      ) : (
        <Badge tone="teal">Active</Badge>
      ),
  },
  {
    id: "scopes",
    header: "Scopes",
    cell: ({ row: { original: k } }) => <span className="break-words font-mono text-xs text-stone-700">{k.scopes.join(" ")}</span>,
  },
  {
    id: "ips",
    header: "Allowed IPs",
    cell: ({ row: { original: k } }) => (
      <span className="break-all font-mono text-xs">{k.allowed_ips.length ? k.allowed_ips.join(", ") : "Any"}</span>
    ),
  },
  {
    id: "created",
    header: "Created",
    cell: ({ row: { original: k } }) => (
      <span className="text-xs">
        <When at={k.created_at} />
      </span>
    ),
  },
  {
    id: "used",
    header: "Last used",
    cell: ({ row: { original: k } }) => (
      <span className="text-xs" data-testid="last-used">
        {k.last_used_at ? relative(k.last_used_at) : "Never"}
      </span>
    ),
  },
  {
    id: "actions",
    header: "Actions",
    cell: ({ row: { original: k } }) => (
      <span className="flex flex-wrap gap-1">
        <HistoryButton k={k} />
        {k.revoked_at ? null : <RevokeButton k={k} />}
      </span>
    ),
  },
];

/** /developers/api-keys: keys with scopes, allow-lists and last use; create (shown once) and revoke. */
export function ApiKeysView() {
  const trpc = useTRPC();
  const keys = useQuery({ ...trpc.developers.apiKeys.list.queryOptions(), refetchInterval: 30_000 });
  const [creating, setCreating] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const [shown, setShown] = useState<string | null>(null);
  const newButton = (
    <Button
      onClick={() => {
        setFormKey((n) => n + 1);
        setCreating(true);
      }}
    >
      New API key
    </Button>
  );
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys belong to the account and reach both data sets: a request picks live or sandbox with the{" "}
            <code className="font-mono">Service-Environment</code> header. Last use is updated at most once a minute.
          </>
        }
        actions={newButton}
      />
      <DataTable
        label="API keys"
        columns={columns}
        data={keys.data}
        loading={keys.isLoading}
        error={keys.error ? callError(keys.error).message : null}
        onRetry={() => keys.refetch()}
        rowKey={(k) => k.id}
        rowProps={(k) => ({ "data-testid": `key-${k.prefix}`, className: k.revoked_at ? "bg-stone-50" : undefined })}
        empty={{ title: "No API keys yet", children: "Create a key for each integration, with only the scopes it needs.", action: newButton }}
      />
      <Dialog open={creating} onOpenChange={setCreating} title="New API key" size="lg">
        <CreateKeyForm
          key={formKey}
          onCreated={(key) => {
            setCreating(false);
            setShown(key);
          }}
        />
      </Dialog>
      <Dialog
        open={shown !== null}
        onOpenChange={(o) => (o ? null : setShown(null))}
        title="Your new API key"
        description="Copy it now: it is shown only once, and Innkeep keeps only its hash."
        dismissible={false}
      >
        <div className="space-y-3">
          <code className="block break-all rounded-md bg-stone-900 p-3 font-mono text-xs text-stone-100" data-testid="new-key">
            {shown}
          </code>
          <div className="flex flex-wrap justify-end gap-2">
            <CopyButton text={shown ?? ""} label="Copy key" />
            <DialogClose asChild>
              <Button>I have stored it</Button>
            </DialogClose>
          </div>
        </div>
      </Dialog>
    </>
  );
}
