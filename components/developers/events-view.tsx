"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, Input, PageHeader, Select } from "@/components/ui";
import { DataTable, Pager, type ColumnDef } from "@/components/ui/data-table";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { eventGroups, fromLocalInput, throughLocalInput, When } from "./common";

type Row = inferRouterOutputs<AppRouter>["developers"]["events"]["list"]["data"][number];
type Filters = { type?: string; created_gte?: string; created_lte?: string };

/** What the event is about, in a few words: the object's type and id. */
const subject = (e: Row) => {
  const o = e.data.object as { object?: string; id?: string };
  return o.id ? `${o.object ?? "object"} ${o.id}` : (o.object ?? "—");
};

const columns: ColumnDef<Row>[] = [
  {
    id: "type",
    header: "Type",
    meta: { primary: true },
    cell: ({ row: { original: e } }) => (
      <Link href={`/developers/events/${e.id}`} className="font-mono text-xs font-medium text-teal-800 hover:underline">
        {e.type}
      </Link>
    ),
  },
  {
    id: "subject",
    header: "Object",
    cell: ({ row: { original: e } }) => <span className="break-all font-mono text-xs text-stone-600">{subject(e)}</span>,
  },
  { id: "id", header: "Event ID", cell: ({ row: { original: e } }) => <span className="break-all font-mono text-xs text-stone-500">{e.id}</span> },
  {
    id: "created",
    header: "Created",
    cell: ({ row: { original: e } }) => (
      <time dateTime={e.created_at} className="text-xs">
        <When at={e.created_at} />
      </time>
    ),
  },
];

/** /developers/events: the event log with type and time filters. */
export function EventsView() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<Filters>({});
  const [draft, setDraft] = useState({ from: "", to: "" });
  const [cursor, setCursor] = useState<string | undefined>();
  const list = useQuery({
    ...trpc.developers.events.list.queryOptions({ ...filters, type: filters.type as never, cursor, limit: 25 }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const applyTime = (e: FormEvent) => {
    e.preventDefault();
    setFilters((f) => ({ ...f, created_gte: fromLocalInput(draft.from), created_lte: throughLocalInput(draft.to) }));
    setCursor(undefined);
  };
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <PageHeader
        title="Events"
        description="Everything that happened in this data set, newest first. Open an event for its payload and where it was delivered."
      />
      <div className="mb-3 grid grid-cols-1 gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <label className="text-xs font-medium text-stone-600">
          Type
          <Select
            className="mt-1"
            value={filters.type ?? ""}
            onChange={(e) => {
              setFilters((f) => ({ ...f, type: e.target.value || undefined }));
              setCursor(undefined);
            }}
          >
            <option value="">Any</option>
            {eventGroups.map((g) => (
              <optgroup key={g.resource} label={g.resource}>
                {g.types.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </optgroup>
            ))}
          </Select>
        </label>
        <form onSubmit={applyTime} className="flex flex-wrap items-end gap-2">
          <label className="min-w-0 flex-1 text-xs font-medium text-stone-600">
            From
            <Input className="mt-1" type="datetime-local" value={draft.from} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} />
          </label>
          <label className="min-w-0 flex-1 text-xs font-medium text-stone-600">
            To
            <Input className="mt-1" type="datetime-local" value={draft.to} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} />
          </label>
          <Button type="submit" variant="secondary">
            Apply
          </Button>
          {filtered ? (
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                setFilters({});
                setDraft({ from: "", to: "" });
                setCursor(undefined);
              }}
            >
              Clear
            </Button>
          ) : null}
        </form>
      </div>
      <DataTable
        label="Events"
        columns={columns}
        data={list.data?.data}
        loading={list.isLoading}
        fetching={list.isFetching}
        error={list.error ? callError(list.error).message : null}
        onRetry={() => list.refetch()}
        rowKey={(e) => e.id}
        empty={{
          title: filtered ? "No event matches these filters" : "No events yet",
          children: filtered
            ? "Widen the time window or choose another type."
            : "Events appear as reservations, payments, guests, rates and rooms change.",
        }}
      />
      <Pager page={list.data} onCursor={setCursor} />
    </>
  );
}
