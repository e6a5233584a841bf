"use client";

import { useMutation, useQuery, useQueryClient, type QueryFilters } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";
import { MomentText } from "@/components/ui/property-format";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { AuditTrail } from "@/components/audit/audit-trail";
import { ReservationList } from "@/components/reservations/reservation-list";
import { Alert, Button, Card, PageHeader } from "@/components/ui";
import { GuestDataCard } from "./guest-data-card";
import { GuestForm, addressFieldsOf, addressOf, type GuestAddress, type GuestFields } from "./guest-form";
import { PreferencesEditor } from "./preferences-editor";
import { LoadingState } from "@/components/ui/states";

/** One guest: contact details (editable) and preferences; for owners and managers, the guest's data (export, erasure). */
/** "Rua das Flores 12, 1200-195 Lisboa, PT": an address on one line. */
const addressText = (a: GuestAddress) => [a.line1, a.line2, [a.postal_code, a.city].filter(Boolean).join(" "), a.region, a.country].filter(Boolean).join(", ");

export function GuestDetail({ id, canManageData = false }: { id: string; canManageData?: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const guest = useQuery(trpc.guests.get.queryOptions({ id }));
  // Stays booked, checked in or out elsewhere (another desk, the API), and changes to this guest
  // (their details, their preferences, an erasure), show without a reload, with the history that
  // records them. Another guest's change leaves this page alone.
  useLiveEvents(["reservation.*", "guest.*"], (event) => {
    const aboutGuest = event.type.startsWith("guest.");
    if (aboutGuest && event.object_id !== id) return;
    const stale: QueryFilters[] = [trpc.guests.get.queryFilter({ id }), trpc.reservations.search.queryFilter({ guest_id: id }), trpc.audit.list.queryFilter()];
    if (aboutGuest) stale.push(trpc.guests.preferences.get.queryFilter({ guest_id: id }));
    for (const filter of stale) void queryClient.invalidateQueries(filter);
  });
  const [editing, setEditing] = useState(false);
  const update = useMutation(
    trpc.guests.update.mutationOptions({
      onSuccess: async (updated) => {
        queryClient.setQueryData(trpc.guests.get.queryKey({ id }), updated);
        setEditing(false);
        await queryClient.invalidateQueries(trpc.guests.list.queryFilter());
        await queryClient.invalidateQueries(trpc.audit.list.queryFilter());
      },
    }),
  );

  const back = (
    <Link href="/guests" className="text-sm text-stone-500 hover:text-stone-800">
      ← All guests
    </Link>
  );
  if (guest.error) {
    const failure = callError(guest.error);
    return (
      <>
        {back}
        <div className="mt-4">
          <Alert>{failure.code === "resource_missing" ? "There is no such guest in this data set." : failure.message}</Alert>
        </div>
      </>
    );
  }
  const g = guest.data;
  if (!g) return <LoadingState />;

  const save = (values: GuestFields) =>
    update.mutateAsync({ id, first_name: values.first_name, last_name: values.last_name, email: values.email.trim() || undefined, phone: values.phone.trim() || null, address: addressOf(values) });

  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader title={`${g.first_name} ${g.last_name}`} description={g.email} />
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card
          title="Contact"
          actions={
            editing || g.erased_at ? null : (
              <Button variant="secondary" onClick={() => setEditing(true)}>
                Edit
              </Button>
            )
          }
        >
          {editing ? (
            <GuestForm
              label="Contact details"
              initial={{ first_name: g.first_name, last_name: g.last_name, email: g.email ?? "", phone: g.phone ?? "", address: addressFieldsOf(g.address) }}
              submitLabel="Save"
              onSubmit={save}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-y-2 text-sm">
              <dt className="text-stone-500">E-mail</dt>
              {/* An erased guest's contact is gone on request, not a walk-in's never given. */}
              <dd className="break-all">{g.email ?? (g.erased_at ? "Erased on request" : "None given (walk-in)")}</dd>
              <dt className="text-stone-500">Phone</dt>
              <dd>{g.phone ?? (g.erased_at ? "Erased on request" : "—")}</dd>
              <dt className="text-stone-500">Address</dt>
              <dd data-testid="guest-address">{g.address ? addressText(g.address) : "—"}</dd>
              <dt className="text-stone-500">Added</dt>
              <dd>
                <MomentText at={g.created_at} />
              </dd>
              <dt className="text-stone-500">Updated</dt>
              <dd>
                <MomentText at={g.updated_at} />
              </dd>
            </dl>
          )}
        </Card>
        {g.erased_at ? (
          // Erased on request: the preferences went with the rest, and nothing may be written back.
          <Card title="Preferences">
            <p className="text-sm text-stone-600" data-testid="preferences-erased">
              Erased with the guest&apos;s personal data on <MomentText at={g.erased_at} />. Nothing can be recorded for this guest any more.
            </p>
          </Card>
        ) : (
          <PreferencesEditor guestId={id} />
        )}
        {canManageData ? <GuestDataCard guestId={id} name={`${g.first_name} ${g.last_name}`} erased={!!g.erased_at} /> : null}
      </div>
      <section className="mt-6" aria-labelledby="guest-stays">
        <h2 id="guest-stays" className="mb-3 text-sm font-semibold text-stone-800">
          Stays
        </h2>
        <ReservationList
          label={`Stays of ${g.first_name} ${g.last_name}`}
          input={{ guest_id: id }}
          pageSize={10}
          empty={{ title: "No stays yet", children: "Reservations booked with this guest's e-mail appear here." }}
        />
      </section>
      <div className="mt-6">
        <AuditTrail objectType="guest" objectId={id} />
      </div>
    </>
  );
}
