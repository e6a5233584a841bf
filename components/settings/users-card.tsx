"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { AuditTrail } from "@/components/audit/audit-trail";
import { MomentText } from "@/components/ui/property-format";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Card, Input, Select } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { ConfirmDialog, Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { toast } from "@/components/ui/toaster";

const roles = [
  { value: "owner", label: "Owner", hint: "everything, plan and users" },
  { value: "manager", label: "Manager", hint: "everything but plan and users" },
  { value: "front_desk", label: "Front desk", hint: "reservations, guests, payments" },
  { value: "housekeeping", label: "Housekeeping", hint: "the housekeeping board" },
] as const;
type Role = (typeof roles)[number]["value"];
type User = { id: string; email: string; name: string | null; role: Role; created_at: string; sign_in_locked: boolean };
const roleLabel = (r: string) => roles.find((x) => x.value === r)?.label ?? r;

/** A readable initial password for the owner to hand over (16 characters from a CSPRNG). */
function generatePassword() {
  const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

/** Staff users of the account (owners only): invite with a role and initial password, change a role, remove. */
export function UsersCard({ currentUserId }: { currentUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.settings.users.list.queryOptions());
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<User | null>(null);
  const [history, setHistory] = useState<User | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.settings.users.list.queryFilter()),
      queryClient.invalidateQueries(trpc.audit.list.queryFilter()),
    ]);

  const changeRole = useMutation(
    trpc.settings.users.changeRole.mutationOptions({
      onSuccess: async (user) => {
        await refresh();
        toast.success(`${user.email} is now ${roleLabel(user.role).toLowerCase()}.`);
      },
      onError: async (error) => {
        toast.error(callError(error).message);
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.settings.users.remove.mutationOptions({
      onSuccess: async () => {
        toast.success(`${removing?.email} can no longer sign in.`);
        setRemoving(null);
        await refresh();
      },
    }),
  );

  const unlock = useMutation(
    trpc.settings.users.unlock.mutationOptions({
      onSuccess: async (user) => {
        toast.success(`${user.email} can sign in again.`);
        await refresh();
      },
      onError: (error) => toast.error(callError(error).message),
    }),
  );

  const columns: ColumnDef<User>[] = [
    {
      id: "user",
      header: "User",
      meta: { primary: true },
      cell: ({ row }) => (
        <span className="block min-w-0">
          <span className="block break-all font-medium text-stone-900">{row.original.email}</span>
          {row.original.name ? <span className="block text-xs text-stone-500">{row.original.name}</span> : null}
          {row.original.id === currentUserId ? <Badge tone="blue">You</Badge> : null}
          {row.original.sign_in_locked ? <Badge tone="red">Locked after failed sign-ins</Badge> : null}
        </span>
      ),
    },
    {
      id: "role",
      header: "Role",
      cell: ({ row }) => (
        <Select
          aria-label={`Role of ${row.original.email}`}
          value={row.original.role}
          disabled={changeRole.isPending}
          className="max-w-44"
          onChange={(e) => changeRole.mutate({ id: row.original.id, role: e.target.value as Role })}
        >
          {roles.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </Select>
      ),
    },
    { id: "added", header: "Added", cell: ({ row }) => <MomentText at={row.original.created_at} /> },
    {
      id: "actions",
      header: "Actions",
      cell: ({ row }) => (
        <span className="flex flex-wrap gap-1">
          <Button variant="ghost" onClick={() => setHistory(row.original)} aria-label={`History of ${row.original.email}`}>
            History
          </Button>
          {row.original.sign_in_locked ? (
            <Button variant="ghost" disabled={unlock.isPending} aria-label={`Unlock ${row.original.email}`} onClick={() => unlock.mutate({ id: row.original.id })}>
              Unlock
            </Button>
          ) : null}
          <Button
            variant="ghost"
            className="text-red-700 hover:bg-red-50 hover:text-red-800"
            aria-label={`Remove ${row.original.email}`}
            onClick={() => {
              remove.reset();
              setRemoving(row.original);
            }}
          >
            Remove
          </Button>
        </span>
      ),
    },
  ];

  return (
    <Card title="Users and roles" actions={<Button onClick={() => setInviting(true)}>Invite user</Button>}>
      <p className="mb-4 text-sm text-stone-500">
        {roles.map((r) => `${r.label}: ${r.hint}`).join(" · ")}. The account always keeps at least one owner.
      </p>
      <DataTable
        label="Users"
        columns={columns}
        data={users.data as User[] | undefined}
        loading={users.isLoading}
        error={users.error ? callError(users.error).message : null}
        onRetry={() => users.refetch()}
        rowKey={(u) => u.id}
        rowProps={(u) => ({ "data-testid": `user-${u.email}` })}
        empty={{ title: "No users yet" }}
      />
      {inviting ? <InviteDialog onClose={() => setInviting(false)} onInvited={refresh} /> : null}
      <ConfirmDialog
        open={!!removing}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove ${removing?.email ?? ""}?`}
        description="They are signed out and can no longer sign in. Their changes stay in the history."
        confirmLabel="Remove user"
        danger
        pending={remove.isPending}
        error={remove.error ? callError(remove.error).message : null}
        onConfirm={() => removing && remove.mutate({ id: removing.id })}
      />
      <Dialog open={!!history} onOpenChange={(open) => !open && setHistory(null)} title={`History of ${history?.email ?? ""}`} size="lg">
        {history ? <AuditTrail objectType="user" objectId={history.id} title="Changes" /> : null}
      </Dialog>
    </Card>
  );
}

const inviteForm = z.object({ email: z.string(), name: z.string().trim(), role: z.enum(roles.map((r) => r.value) as [Role, ...Role[]]), password: z.string() });
type InviteForm = z.input<typeof inviteForm>;

function InviteDialog({ onClose, onInvited }: { onClose: () => void; onInvited: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const form = useZodForm(inviteForm, { defaultValues: { email: "", name: "", role: "front_desk", password: generatePassword() } });
  const invite = useMutation(
    trpc.settings.users.invite.mutationOptions({
      onSuccess: async (user) => {
        await onInvited();
        toast.success(`${user.email} can sign in now with the password you hand over.`);
        onClose();
      },
      onError: (e) => showServerError<InviteForm>(form, e),
    }),
  );
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Invite a user" description="They sign in with this e-mail and the initial password; hand it over safely.">
      <Form form={form} onSubmit={(v) => invite.mutate({ email: v.email, name: v.name || undefined, role: v.role, password: v.password })} aria-label="Invite a user" className="space-y-4">
        <FormError />
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField<InviteForm> name="email" label="E-mail">
            {(control) => <Input {...control} type="email" autoComplete="off" />}
          </FormField>
          <FormField<InviteForm> name="name" label="Name (optional)">
            {(control) => <Input {...control} autoComplete="off" />}
          </FormField>
          <FormField<InviteForm> name="role" label="Role">
            {(control) => (
              <Select {...control}>
                {roles.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          <FormField<InviteForm> name="password" label="Initial password" hint="At least 8 characters.">
            {(control) => (
              <div className="flex gap-2">
                <Input {...control} autoComplete="new-password" className="font-mono" />
                <Button type="button" variant="secondary" onClick={() => form.setValue("password", generatePassword())}>
                  New
                </Button>
              </div>
            )}
          </FormField>
        </div>
        <DialogActions label="Invite" pendingLabel="Inviting…" pending={invite.isPending} />
      </Form>
    </Dialog>
  );
}
