"use client";

import { useBusinessDate } from "@/components/shell/business-date";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { useTRPC } from "@/components/trpc/client";
import { Button, FilterField, Input, PageHeader, Select } from "@/components/ui";
import { Tabs } from "@/components/ui/tabs";
import { useDebounced } from "@/components/ui/use-debounced";
import { usePropertyFormat } from "@/components/ui/property-format";
import { sourceLabels, statusLabels } from "./format";
import { ReservationList, type SearchInput } from "./reservation-list";

type Filters = { q: string; status: string; room_type_id: string; source: string; check_in_from: string; check_in_to: string };
const noFilters: Filters = { q: "", status: "", room_type_id: "", source: "", check_in_from: "", check_in_to: "" };

/** The form's values as the search procedure's input: empty fields are left out. */
function toSearch(propertyId: string, f: Filters): SearchInput {
  const input: Record<string, string> = { property_id: propertyId };
  for (const [key, value] of Object.entries(f)) if (value.trim()) input[key] = value.trim();
  return input as SearchInput;
}

/**
 * /reservations: today's arrivals, in-house guests and departures as tabs, and a search of all
 * reservations by any part of the guest's name, e-mail or phone, or of the id, with filters; the
 * list follows as the clerk types. Every list is in order of stay. "Today" is the property's date.
 */
export function ReservationsView({
  propertyId,
  propertyName,
  initialTab,
}: {
  propertyId: string;
  propertyName: string;
  initialTab?: string;
}) {
  const today = useBusinessDate();
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const lookups = useQuery(trpc.reservations.lookups.queryOptions({ property_id: propertyId }));
  // A booking, check-in or cancellation made elsewhere (another desk, the API) shows within seconds.
  useLiveInvalidate(["reservation.*", "night_audit.completed"], trpc.reservations.search.queryFilter(), trpc.properties.businessDate.queryFilter());
  const [tab, setTab] = useState(initialTab ?? "arrivals");
  // Upcoming stays first: "arriving from" starts at today, a filter the clerk sees and can clear.
  const initial = { ...noFilters, check_in_from: today };
  const [draft, setDraft] = useState<Filters>(initial);
  const q = useDebounced(draft.q);
  const applied = { ...draft, q };
  const set = (key: keyof Filters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  const clear = () => setDraft(noFilters);
  const newButton = (
    <Link
      href="/reservations/new"
      className="inline-flex items-center rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-teal-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 focus-visible:ring-offset-1"
    >
      New reservation
    </Link>
  );
  const day = (view: "arrivals" | "in_house" | "departures", label: string, emptyTitle: string) => ({
    value: view,
    label,
    content: (
      <ReservationList label={`${label}, ${fmt.day(today, "long")}`} input={{ property_id: propertyId, view }} empty={{ title: emptyTitle }} />
    ),
  });
  const filtered = Object.values(draft).some((v) => v.trim());

  return (
    <>
      <PageHeader title="Reservations" description={`${propertyName} · today is ${fmt.day(today, "long")} at the property`} actions={newButton} />
      <Tabs
        label="Reservation lists"
        value={tab}
        onValueChange={setTab}
        tabs={[
          day("arrivals", "Arrivals", "No arrivals today"),
          day("in_house", "In house", "Nobody is checked in"),
          day("departures", "Departures", "No departures today"),
          {
            value: "search",
            label: "Search all",
            content: (
              <>
                <form onSubmit={(e) => e.preventDefault()} role="search" aria-label="Search reservations" className="mb-4 space-y-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm">
                  <div className="flex flex-col gap-2 sm:flex-row">
                    <div className="min-w-0 flex-1">
                      <label htmlFor="res-q" className="sr-only">
                        Guest name, e-mail, phone or reservation id
                      </label>
                      <Input id="res-q" type="search" autoComplete="off" placeholder="Guest name, e-mail, phone or reservation id" value={draft.q} onChange={set("q")} />
                    </div>
                    <div className="flex gap-2">
                      {filtered ? (
                        <Button type="button" variant="ghost" onClick={clear}>
                          Clear all
                        </Button>
                      ) : null}
                    </div>
                  </div>
                  <div className="grid grid-cols-2 gap-3 md:grid-cols-5">
                    <FilterField label="Status" htmlFor="res-status">
                      <Select id="res-status" value={draft.status} onChange={set("status")}>
                        <option value="">Any</option>
                        {Object.entries(statusLabels).map(([value, { label }]) => (
                          <option key={value} value={value}>
                            {label}
                          </option>
                        ))}
                      </Select>
                    </FilterField>
                    <FilterField label="Room type" htmlFor="res-type">
                      <Select id="res-type" value={draft.room_type_id} onChange={set("room_type_id")}>
                        <option value="">Any</option>
                        {lookups.data?.room_types.map((t) => (
                          <option key={t.id} value={t.id}>
                            {t.name}
                          </option>
                        ))}
                      </Select>
                    </FilterField>
                    <FilterField label="Source" htmlFor="res-source">
                      <Select id="res-source" value={draft.source} onChange={set("source")}>
                        <option value="">Any</option>
                        {Object.entries(sourceLabels).map(([value, label]) => (
                          <option key={value} value={value}>
                            {label}
                          </option>
                        ))}
                      </Select>
                    </FilterField>
                    <FilterField label="Arriving from" htmlFor="res-from">
                      <Input id="res-from" type="date" value={draft.check_in_from} onChange={set("check_in_from")} />
                    </FilterField>
                    <FilterField label="Arriving before" htmlFor="res-to">
                      <Input id="res-to" type="date" value={draft.check_in_to} onChange={set("check_in_to")} />
                    </FilterField>
                  </div>
                </form>
                <ReservationList
                  label="Reservations found"
                  input={toSearch(propertyId, applied)}
                  empty={
                    filtered
                      ? { title: "No reservation matches", children: "Try part of the name or e-mail, or fewer filters." }
                      : { title: "No reservations yet", action: newButton }
                  }
                />
              </>
            ),
          },
        ]}
      />
    </>
  );
}
