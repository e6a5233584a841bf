"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { MomentText } from "@/components/ui/property-format";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Card, Input, PageHeader } from "@/components/ui";
import { GuestForm, type GuestFields } from "./guest-form";

const pageSize = 20;

/** Guests of the data set on screen: exact e-mail search, newest first, cursor paging, and a create form. */
export function GuestsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [email, setEmail] = useState<string | undefined>();
  const [cursor, setCursor] = useState<string | undefined>();
  const [creating, setCreating] = useState(false);
  const [formKey, setFormKey] = useState(0);

  const list = useQuery({ ...trpc.guests.list.queryOptions({ email, cursor, limit: pageSize }), placeholderData: keepPreviousData });
  // Guests booked elsewhere (another desk, the API) appear without a reload.
  useLiveInvalidate(["guest.created"], trpc.guests.list.queryFilter());
  const create = useMutation(
    trpc.guests.create.mutationOptions({
      onSuccess: async () => {
        setCreating(false);
        setFormKey((k) => k + 1);
        setEmail(undefined);
        setSearch("");
        setCursor(undefined);
        await queryClient.invalidateQueries(trpc.guests.list.queryFilter());
      },
    }),
  );

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setEmail(search.trim() || undefined);
    setCursor(undefined);
  };

  const createGuest = (values: GuestFields) =>
    create.mutate({ first_name: values.first_name, last_name: values.last_name, email: values.email, phone: values.phone.trim() || undefined });

  const page = list.data;
  return (
    <>
      <PageHeader
        title="Guests"
        description="Everyone who has stayed or booked, newest first."
        actions={
          creating ? null : (
            <Button
              onClick={() => {
                create.reset();
                setCreating(true);
              }}
            >
              New guest
            </Button>
          )
        }
      />
      {creating ? (
        <Card title="New guest" className="mb-6">
          <GuestForm
            key={formKey}
            idPrefix="new-guest"
            label="New guest"
            submitLabel="Create guest"
            pending={create.isPending}
            error={create.error}
            onSubmit={createGuest}
            onCancel={() => setCreating(false)}
          />
        </Card>
      ) : null}
      <form onSubmit={submitSearch} className="mb-4 flex max-w-md gap-2" role="search">
        <Input
          type="search"
          aria-label="Search by e-mail"
          placeholder="Search by exact e-mail"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
        {email ? (
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setSearch("");
              setEmail(undefined);
              setCursor(undefined);
            }}
          >
            Clear
          </Button>
        ) : null}
      </form>
      {list.error ? <Alert>{callError(list.error).message}</Alert> : null}
      <div className="overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-stone-200 bg-stone-50 text-xs uppercase tracking-wide text-stone-500">
            <tr>
              <th className="px-4 py-2 font-medium">Name</th>
              <th className="px-4 py-2 font-medium">E-mail</th>
              <th className="px-4 py-2 font-medium">Phone</th>
              <th className="px-4 py-2 font-medium">Added</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100" aria-busy={list.isFetching}>
            {page?.data.map((g) => (
              <tr key={g.id} className="hover:bg-stone-50">
                <td className="px-4 py-2.5">
                  <Link href={`/guests/${g.id}`} className="font-medium text-teal-800 hover:underline">
                    {g.first_name} {g.last_name}
                  </Link>
                </td>
                <td className="px-4 py-2.5 text-stone-700">{g.email}</td>
                <td className="px-4 py-2.5 text-stone-500">{g.phone ?? "—"}</td>
                <td className="px-4 py-2.5 text-stone-500">
                  <MomentText at={g.created_at} />
                </td>
              </tr>
            ))}
            {page && page.data.length === 0 ? (
              <tr>
                <td colSpan={4} className="px-4 py-8 text-center text-stone-500">
                  {email ? `No guest with the e-mail ${email}.` : "No guests yet."}
                </td>
              </tr>
            ) : null}
            {!page && list.isLoading ? (
              <tr>
                <td colSpan={4} className="px-4 py-8 text-center text-stone-400">
                  Loading…
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
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
