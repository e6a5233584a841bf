"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, PageHeader } from "@/components/ui";
import { DataTable, Pager, type ColumnDef } from "@/components/ui/data-table";
import { Dialog } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import { EndpointStatus } from "./common";
import { EndpointForm } from "./endpoint-form";
import type { AppRouter } from "@/server/trpc/routers/_app";
import type { inferRouterOutputs } from "@trpc/server";

export type EndpointRow = inferRouterOutputs<AppRouter>["developers"]["webhooks"]["list"]["data"][number];

const percent = (rate: number | null) => (rate === null ? "—" : `${(rate * 100).toFixed(rate === 1 ? 0 : 1)} %`);
export const eventsSummary = (events: string[]) => (events.includes("*") ? "All events" : events.length <= 2 ? events.join(", ") : `${events.slice(0, 2).join(", ")} +${events.length - 2}`);

const columns: ColumnDef<EndpointRow>[] = [
  {
    id: "url",
    header: "Endpoint",
    meta: { primary: true },
    cell: ({ row: { original: e } }) => (
      <div className="min-w-0">
        <Link href={`/developers/webhooks/${e.id}`} className="break-all font-medium text-teal-800 hover:underline">
          {e.url}
        </Link>
        {e.description ? <p className="text-xs text-stone-500">{e.description}</p> : null}
      </div>
    ),
  },
  { id: "status", header: "Status", cell: ({ row: { original: e } }) => <EndpointStatus status={e.status} reason={e.disabled_reason} since={e.disabled_at} /> },
  { id: "events", header: "Events", cell: ({ row: { original: e } }) => <span className="font-mono text-xs text-stone-700">{eventsSummary(e.enabled_events)}</span> },
  {
    id: "success",
    header: "Success (24 h)",
    meta: { numeric: true },
    cell: ({ row: { original: e } }) => (
      <span title={`${e.stats.attempts_24h} attempts`}>
        {percent(e.stats.success_rate_24h)}
        <span className="block text-xs text-stone-500">{e.stats.attempts_24h} attempts</span>
      </span>
    ),
  },
  { id: "p95", header: "p95 latency", meta: { numeric: true }, cell: ({ row: { original: e } }) => (e.stats.p95_latency_ms_24h === null ? "—" : `${e.stats.p95_latency_ms_24h} ms`) },
  {
    id: "waiting",
    header: "Waiting",
    meta: { numeric: true },
    cell: ({ row: { original: e } }) =>
      e.stats.waiting ? (
        <Link href={`/developers/deliveries?endpoint_id=${e.id}&outcome=${e.status === "disabled" ? "held" : "pending"}`} className="text-teal-800 hover:underline">
          {e.stats.waiting}
        </Link>
      ) : (
        "0"
      ),
  },
];

/** /developers/webhooks: every endpoint with its health over the last 24 hours, and a create dialog. */
export function WebhooksView() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [cursor, setCursor] = useState<string | undefined>();
  const [creating, setCreating] = useState(false);
  const list = useQuery({ ...trpc.developers.webhooks.list.queryOptions({ cursor, limit: 20 }), placeholderData: keepPreviousData, refetchInterval: 15_000 });
  const create = useMutation(
    trpc.developers.webhooks.create.mutationOptions({
      onSuccess: async (created) => {
        setCreating(false);
        await queryClient.invalidateQueries(trpc.developers.webhooks.list.queryFilter());
        toast.success("Endpoint created. Its signing secret is on the endpoint's page.");
        router.push(`/developers/webhooks/${created.id}`);
      },
    }),
  );
  const newButton = <Button onClick={() => setCreating(true)}>New endpoint</Button>;
  return (
    <>
      <PageHeader title="Webhooks" description="Endpoints that receive your events, signed, with retries. Health figures cover the last 24 hours." actions={newButton} />
      <DataTable
        label="Webhook endpoints"
        columns={columns}
        data={list.data?.data}
        loading={list.isLoading}
        fetching={list.isFetching}
        error={list.error ? callError(list.error).message : null}
        onRetry={() => list.refetch()}
        rowKey={(e) => e.id}
        rowProps={(e) => ({ "data-testid": `endpoint-${e.id}` })}
        empty={{ title: "No webhook endpoints yet", children: "Add an endpoint to receive reservations, payments and other events as they happen.", action: newButton }}
      />
      <Pager page={list.data} onCursor={setCursor} />
      <Dialog open={creating} onOpenChange={setCreating} title="New webhook endpoint" description="Innkeep signs every delivery; you can reveal the secret on the endpoint's page." size="lg">
        <EndpointForm submitLabel="Create endpoint" onSubmit={(v) => create.mutateAsync({ url: v.url, description: v.description || null, enabled_events: v.enabled_events as never })} />
      </Dialog>
    </>
  );
}
