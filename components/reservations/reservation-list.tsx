"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge } from "@/components/ui";
import { DataTable, Pager, type ColumnDef } from "@/components/ui/data-table";
import type { AppRouter } from "@/server/trpc/routers/_app";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { DayText, MoneyText, usePropertyFormat } from "@/components/ui/property-format";
import { lateCheckOutWords, nightsLabel, sourceLabels, statusLabels } from "./format";
import { plural } from "@/lib/words";

export type SearchInput = Omit<inferRouterInputs<AppRouter>["reservations"]["search"], "cursor" | "limit">;
export type ReservationRow = inferRouterOutputs<AppRouter>["reservations"]["search"]["data"][number];

/** The stay's late check-out under its dates, where one was granted. */
function LateCheckOut({ r }: { r: ReservationRow }) {
  const fmt = usePropertyFormat();
  const words = lateCheckOutWords(r, fmt.timeOfDay);
  return words ? <span className="block text-xs text-amber-900">{words}</span> : null;
}

const columns: ColumnDef<ReservationRow>[] = [
  {
    id: "guest",
    header: "Guest",
    meta: { primary: true },
    cell: ({ row: { original: r } }) => (
      <div className="min-w-0">
        <Link
          href={`/reservations/${r.id}`}
          className="font-medium text-teal-800 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600"
        >
          {r.guest.first_name} {r.guest.last_name}
        </Link>
        <p className="truncate text-xs font-normal text-stone-500">{r.guest.email}</p>
      </div>
    ),
  },
  {
    id: "stay",
    header: "Stay",
    cell: ({ row: { original: r } }) => (
      <span className="whitespace-nowrap">
        <DayText date={r.check_in} style="short" /> → <DayText date={r.check_out} style="short" />{" "}
        <span className="text-stone-500">· {nightsLabel(r.nights)}</span>
        <LateCheckOut r={r} />
      </span>
    ),
  },
  {
    id: "room",
    header: "Room",
    cell: ({ row: { original: r } }) => (
      <span>
        {r.room_type?.name ?? r.room_type_id}
        {r.room_number ? <span className="ml-1 font-medium text-stone-900">· Room {r.room_number}</span> : null}
      </span>
    ),
  },
  {
    id: "guests",
    header: "Guests",
    cell: ({ row: { original: r } }) =>
      `${plural(r.adults, "adult")}${r.children ? `, ${plural(r.children, "child", "children")}` : ""}`,
  },
  { id: "source", header: "Source", cell: ({ row: { original: r } }) => sourceLabels[r.source] ?? r.source },
  {
    id: "status",
    header: "Status",
    cell: ({ row: { original: r } }) => <Badge tone={statusLabels[r.status]?.tone}>{statusLabels[r.status]?.label ?? r.status}</Badge>,
  },
  { id: "total", header: "Total", meta: { numeric: true }, cell: ({ row: { original: r } }) => <MoneyText value={r.price.gross} /> },
];

/** Columns a list with actions leaves out, so its buttons fit beside the stay. */
const dayListDrops = ["guests", "source"];

/**
 * One cursor-paged list of reservations for the given search; a new search starts on page one.
 * `action` adds a last column with what a row offers (the front desk's one-click check-in).
 */
export function ReservationList({
  label,
  input,
  empty,
  pageSize = 25,
  action,
}: {
  label: string;
  input: SearchInput;
  empty: { title: string; children?: ReactNode; action?: ReactNode };
  pageSize?: number;
  action?: (row: ReservationRow) => ReactNode;
}) {
  const trpc = useTRPC();
  const key = JSON.stringify(input);
  const [paging, setPaging] = useState<{ key: string; cursor?: string }>({ key });
  const cursor = paging.key === key ? paging.cursor : undefined;
  const list = useQuery({ ...trpc.reservations.search.queryOptions({ ...input, cursor, limit: pageSize }), placeholderData: keepPreviousData });
  return (
    <>
      <DataTable
        label={label}
        columns={action ? [...columns.filter((c) => !dayListDrops.includes(c.id!)), { id: "action", header: "", cell: ({ row }) => action(row.original) }] : columns}
        data={list.data?.data}
        loading={list.isLoading}
        error={list.error ? callError(list.error).message : null}
        onRetry={() => list.refetch()}
        empty={empty}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ "data-testid": `reservation-${r.id}` })}
        fetching={list.isFetching}
      />
      <Pager page={list.data} onCursor={(c) => setPaging({ key, cursor: c })} />
    </>
  );
}
