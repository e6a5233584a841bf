"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { MomentText } from "@/components/ui/property-format";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, Card, Input, PageHeader } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { useDebounced } from "@/components/ui/use-debounced";
import type { AppRouter } from "@/server/trpc/routers/_app";
import type { inferRouterOutputs } from "@trpc/server";
import { GuestForm, addressOf, type GuestFields } from "./guest-form";

const pageSize = 20;

type GuestRow = inferRouterOutputs<AppRouter>["guests"]["list"]["data"][number];

const columns: ColumnDef<GuestRow>[] = [
  {
    id: "name",
    header: "Name",
    meta: { primary: true },
    cell: ({ row: { original: g } }) => (
      <Link href={`/guests/${g.id}`} className="font-medium text-teal-800 hover:underline">
        {g.first_name} {g.last_name}
      </Link>
    ),
  },
  { id: "email", header: "E-mail", cell: ({ row: { original: g } }) => <span className="break-all">{g.email ?? <span className="text-stone-500">None given</span>}</span> },
  { id: "phone", header: "Phone", cell: ({ row: { original: g } }) => <span className="whitespace-nowrap">{g.phone ?? "—"}</span> },
  { id: "added", header: "Added", cell: ({ row: { original: g } }) => <MomentText at={g.created_at} /> },
];

/** Guests of the data set on screen: found as the clerk types (any part of name, e-mail or phone), newest first, cursor paging, and a create form. */
export function GuestsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const term = useDebounced(search.trim()) || undefined;
  // A new term starts on page one.
  const [paging, setPaging] = useState<{ term?: string; cursor?: string }>({});
  const cursor = paging.term === term ? paging.cursor : undefined;
  const setCursor = (next: string | undefined) => setPaging({ term, cursor: next });
  const [creating, setCreating] = useState(false);
  const [formKey, setFormKey] = useState(0);

  const list = useQuery({ ...trpc.guests.list.queryOptions({ search: term, cursor, limit: pageSize }), placeholderData: keepPreviousData });
  // Guests booked elsewhere (another desk, the API) appear without a reload.
  useLiveInvalidate(["guest.*"], trpc.guests.list.queryFilter());
  const create = useMutation(
    trpc.guests.create.mutationOptions({
      onSuccess: async () => {
        setCreating(false);
        setFormKey((k) => k + 1);
        setSearch("");
        setPaging({});
        await queryClient.invalidateQueries(trpc.guests.list.queryFilter());
      },
    }),
  );

  const createGuest = (values: GuestFields) =>
    create.mutateAsync({ first_name: values.first_name, last_name: values.last_name, email: values.email, phone: values.phone.trim() || undefined, address: addressOf(values) ?? undefined });
  const searching = Boolean(term);

  const page = list.data;
  return (
    <>
      <PageHeader
        title="Guests"
        description="Everyone who has stayed or booked, newest first."
        actions={
          creating ? null : (
            <Button onClick={() => setCreating(true)}>New guest</Button>
          )
        }
      />
      {creating ? (
        <Card title="New guest" className="mb-6">
          <GuestForm
            key={formKey}
            label="New guest"
            submitLabel="Create guest"
            onSubmit={createGuest}
            onCancel={() => setCreating(false)}
          />
        </Card>
      ) : null}
      <form onSubmit={(e) => e.preventDefault()} className="mb-4 flex max-w-md gap-2" role="search" aria-label="Find a guest">
        <Input
          type="search"
          aria-label="Find a guest"
          placeholder="Name, e-mail or phone"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          autoComplete="off"
          className="min-h-10"
        />
        {search ? (
          <Button type="button" variant="ghost" onClick={() => setSearch("")}>
            Clear
          </Button>
        ) : null}
      </form>
      <DataTable
        label={searching ? "Guests found" : "Guests"}
        columns={columns}
        data={page?.data}
        loading={list.isLoading}
        error={list.error ? callError(list.error).message : null}
        onRetry={() => list.refetch()}
        empty={searching ? { title: `Nobody matches “${term}”`, children: "Try part of the name, e-mail or phone." } : { title: "No guests yet" }}
        rowKey={(g) => g.id}
        rowProps={(g) => ({ "data-testid": `guest-${g.id}` })}
        fetching={list.isFetching}
      />
      <div className="mt-3 flex justify-end gap-2">
        <Button variant="secondary" disabled={!page?.prev_cursor} onClick={() => setCursor(page?.prev_cursor ?? undefined)}>
          ← Newer
        </Button>
        <Button variant="secondary" disabled={!page?.next_cursor} onClick={() => setCursor(page?.next_cursor ?? undefined)}>
          Older →
        </Button>
      </div>
    </>
  );
}
