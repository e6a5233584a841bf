"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, PageHeader } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { ConfirmDialog } from "@/components/ui/dialog";
import { MomentText } from "@/components/ui/property-format";
import { toast } from "@/components/ui/toaster";
import type { PresentedInstall } from "@/server/oauth/present";
import { scopeDescriptions, type Scope } from "@/server/auth/scopes";

const When = ({ at }: { at: string | null }) => (at ? <MomentText at={at} /> : <>Never</>);

/** Apps installed on the account: what each may do, where, who installed it; revoke at once. */
export function InstallsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.oauth.installs.list.queryOptions());
  const [revoking, setRevoking] = useState<PresentedInstall | null>(null);
  const revoke = useMutation(
    trpc.oauth.installs.revoke.mutationOptions({
      onSuccess: async () => {
        setRevoking(null);
        toast.success("App revoked; its tokens no longer work");
        await queryClient.invalidateQueries(trpc.oauth.installs.list.queryFilter());
      },
    }),
  );

  const columns: ColumnDef<PresentedInstall>[] = [
    { header: "App", meta: { primary: true }, cell: ({ row }) => <span className="font-medium text-stone-900">{row.original.app.name}</span> },
    {
      header: "May",
      cell: ({ row }) => (
        <ul className="space-y-0.5 text-sm text-stone-700">
          {row.original.scopes.map((scope) => (
            <li key={scope}>{scopeDescriptions[scope as Scope] ?? "Something no longer offered"}</li>
          ))}
        </ul>
      ),
    },
    {
      header: "Properties",
      cell: ({ row }) => (
        <ul className="space-y-0.5">
          {row.original.properties.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center gap-1 text-sm">
              {p.name} {p.livemode ? null : <Badge tone="amber">Sandbox</Badge>}
            </li>
          ))}
        </ul>
      ),
    },
    { header: "Installed by", cell: ({ row }) => <span className="break-all">{row.original.installed_by ?? "—"}</span> },
    { header: "Installed", cell: ({ row }) => <When at={row.original.installed_at} /> },
    { header: "Last used", cell: ({ row }) => <When at={row.original.last_used_at} /> },
    {
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) => (
        <Button variant="secondary" onClick={() => (revoke.reset(), setRevoking(row.original))} aria-label={`Revoke ${row.original.app.name}`}>
          Revoke
        </Button>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Installed apps" description="Apps connected to your account through OAuth. Revoking one stops all of its tokens at once." />
      <DataTable
        label="Installed apps"
        columns={columns}
        data={list.data}
        loading={list.isLoading}
        error={list.error ? callError(list.error).message : null}
        onRetry={() => list.refetch()}
        rowKey={(i) => i.id}
        empty={{ title: "No apps installed", children: "When an owner or manager approves an app on the consent page, it appears here." }}
      />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={`Revoke ${revoking?.app.name ?? "this app"}?`}
        description="The app loses access immediately: every access and refresh token it holds stops working. It can only come back through a new consent."
        confirmLabel="Revoke app"
        danger
        pending={revoke.isPending}
        error={revoke.error ? callError(revoke.error).message : null}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
      />
    </>
  );
}
