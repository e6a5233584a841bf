"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, Input, Select } from "@/components/ui";
import { DataTable, Pager, type ColumnDef } from "@/components/ui/data-table";
import { toast } from "@/components/ui/toaster";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { allEventTypes, fromLocalInput, throughLocalInput, HttpStatus, OutcomeBadge, relative, When, type Outcome } from "./common";

type Row = inferRouterOutputs<AppRouter>["developers"]["deliveries"]["list"]["data"][number];
export type LogFilters = {
  outcome?: Outcome;
  event_type?: string;
  status_class?: "2xx" | "3xx" | "4xx" | "5xx" | "network";
  created_gte?: string;
  created_lte?: string;
};

function ReplayButton({ row }: { row: Row }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const replay = useMutation(
    trpc.developers.deliveries.replay.mutationOptions({
      onSuccess: async (r) => {
        toast.success(`Replay queued as ${r.delivery_id}`);
        await queryClient.invalidateQueries(trpc.developers.deliveries.list.queryFilter());
      },
      onError: (e) => toast.error(callError(e).message),
    }),
  );
  if (row.source === "test") return null;
  return (
    <Button
      variant="secondary"
      className="px-2 py-1 text-xs"
      disabled={replay.isPending}
      onClick={() => replay.mutate({ id: row.id })}
      aria-label={`Replay delivery ${row.id}`}
    >
      {replay.isPending ? "Queuing…" : "Replay"}
    </Button>
  );
}

function columnsFor(fleet: boolean): ColumnDef<Row>[] {
  return [
    {
      id: "event",
      header: "Event",
      meta: { primary: true },
      cell: ({ row: { original: d } }) => (
        <Link href={`/developers/deliveries/${d.id}`} className="group block min-w-0">
          {/* Named by its own text (what is seen is what is said), with the words a screen reader needs around it. */}
          <span className="sr-only">Delivery of </span>
          <span className="font-mono text-xs font-medium text-teal-800 group-hover:underline">{d.event_type}</span>
          <span className="sr-only">, {d.outcome}</span>
          {d.source !== "event" ? <span className="ml-1.5 text-xs text-stone-500">({d.source})</span> : null}
          <span className="block break-all font-mono text-[11px] text-stone-500">{d.id}</span>
        </Link>
      ),
    },
    ...(fleet
      ? [
          {
            id: "endpoint",
            header: "Endpoint",
            cell: ({ row: { original: d } }: { row: { original: Row } }) => (
              <Link href={`/developers/webhooks/${d.endpoint_id}`} className="break-all text-xs text-stone-700 hover:underline">
                {d.endpoint_url}
              </Link>
            ),
          } satisfies ColumnDef<Row>,
        ]
      : []),
    {
      id: "outcome",
      header: "Outcome",
      cell: ({ row: { original: d } }) => (
        <span className="inline-flex flex-wrap items-center gap-1.5">
          <OutcomeBadge outcome={d.outcome} />
          {d.outcome === "pending" && d.next_attempt_at ? <span className="text-xs text-stone-500">next {relative(d.next_attempt_at)}</span> : null}
        </span>
      ),
    },
    {
      id: "last",
      header: "Last answer",
      cell: ({ row: { original: d } }) =>
        d.last_attempt ? (
          <span className="inline-flex flex-wrap items-center gap-1.5">
            <HttpStatus status={d.last_attempt.response_status} error={d.last_attempt.error} />
            <span className="text-xs text-stone-500">{d.last_attempt.latency_ms} ms</span>
          </span>
        ) : (
          <span className="text-xs text-stone-500">not attempted yet</span>
        ),
    },
    { id: "attempts", header: "Attempts", meta: { numeric: true }, cell: ({ row: { original: d } }) => d.attempt_count },
    {
      id: "created",
      header: "Created",
      cell: ({ row: { original: d } }) => (
        <time dateTime={d.created_at} className="text-xs text-stone-600">
          <When at={d.created_at} />
        </time>
      ),
    },
    { id: "actions", header: "Actions", cell: ({ row: { original: d } }) => <ReplayButton row={d} /> },
  ];
}

/**
 * The delivery log: one endpoint's (`endpointId`) or every endpoint's. Filters by outcome, event
 * type, the latest answer's status class and creation time; cursor-paged; refreshed every few
 * seconds so retries and held deliveries draining show as they happen.
 */
export function DeliveryLog({ endpointId, initial = {}, title }: { endpointId?: string; initial?: LogFilters; title?: string }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<LogFilters>(initial);
  const [draft, setDraft] = useState({ from: "", to: "" });
  const [cursor, setCursor] = useState<string | undefined>();
  const input = { ...filters, endpoint_id: endpointId, cursor, limit: 20 };
  const list = useQuery({ ...trpc.developers.deliveries.list.queryOptions(input), placeholderData: keepPreviousData, refetchInterval: 4_000 });
  const set = (patch: Partial<LogFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setCursor(undefined);
  };
  const applyTime = (e: FormEvent) => {
    e.preventDefault();
    set({ created_gte: fromLocalInput(draft.from), created_lte: throughLocalInput(draft.to) });
  };
  const filtered = Object.values(filters).some(Boolean);
  const prefix = endpointId ? "endpoint-log" : "log";
  return (
    <section aria-label={title ?? "Delivery log"}>
      <div className="mb-3 grid grid-cols-2 gap-2 md:grid-cols-4 xl:grid-cols-[repeat(3,minmax(0,1fr))_minmax(0,2fr)]">
        <label className="text-xs font-medium text-stone-600">
          Outcome
          <Select
            className="mt-1"
            value={filters.outcome ?? ""}
            onChange={(e) => set({ outcome: (e.target.value || undefined) as Outcome | undefined })}
          >
            <option value="">Any</option>
            <option value="succeeded">Succeeded</option>
            <option value="failed">Failed</option>
            <option value="pending">Pending (retrying)</option>
            <option value="held">Held (endpoint disabled)</option>
          </Select>
        </label>
        <label className="text-xs font-medium text-stone-600">
          Event type
          <Select className="mt-1" value={filters.event_type ?? ""} onChange={(e) => set({ event_type: e.target.value || undefined })}>
            <option value="">Any</option>
            {[...allEventTypes, "ping"].map((t) => (
              <option key={t} value={t}>
                {t === "ping" ? "ping (test events)" : t}
              </option>
            ))}
          </Select>
        </label>
        <label className="text-xs font-medium text-stone-600">
          Last answer
          <Select
            className="mt-1"
            value={filters.status_class ?? ""}
            onChange={(e) => set({ status_class: (e.target.value || undefined) as LogFilters["status_class"] })}
          >
            <option value="">Any</option>
            <option value="2xx">2xx</option>
            <option value="3xx">3xx</option>
            <option value="4xx">4xx</option>
            <option value="5xx">5xx</option>
            <option value="network">No answer (network error, timeout)</option>
          </Select>
        </label>
        <form onSubmit={applyTime} className="col-span-2 flex flex-wrap items-end gap-2 md:col-span-1 xl:col-span-1">
          <label className="min-w-0 flex-1 text-xs font-medium text-stone-600">
            From
            <Input
              id={`${prefix}-from`}
              className="mt-1"
              type="datetime-local"
              value={draft.from}
              onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
            />
          </label>
          <label className="min-w-0 flex-1 text-xs font-medium text-stone-600">
            To
            <Input
              id={`${prefix}-to`}
              className="mt-1"
              type="datetime-local"
              value={draft.to}
              onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))}
            />
          </label>
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        </form>
      </div>
      {filtered ? (
        <div className="mb-3">
          <Button
            variant="ghost"
            className="px-2 py-1 text-xs"
            onClick={() => {
              setFilters({});
              setDraft({ from: "", to: "" });
              setCursor(undefined);
            }}
          >
            Clear filters
          </Button>
        </div>
      ) : null}
      <DataTable
        label={title ?? "Deliveries"}
        columns={columnsFor(!endpointId)}
        data={list.data?.data}
        loading={list.isLoading}
        fetching={list.isFetching}
        error={list.error ? callError(list.error).message : null}
        onRetry={() => list.refetch()}
        rowKey={(d) => d.id}
        rowProps={() => ({ "data-testid": "delivery-row" })}
        empty={{
          title: filtered ? "No delivery matches these filters" : "No deliveries yet",
          children: filtered
            ? "Widen the filters, or clear them."
            : "Deliveries appear here as soon as an event reaches an endpoint that selects it.",
        }}
      />
      <Pager page={list.data} onCursor={setCursor} />
    </section>
  );
}
