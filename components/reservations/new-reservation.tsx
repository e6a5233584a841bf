"use client";

import { useBusinessDate } from "@/components/shell/business-date";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Badge, Button, Card, Field, Input, PageHeader, Select, Textarea, cx } from "@/components/ui";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { addDays } from "@/lib/dates";
import { usePropertyFormat } from "@/components/ui/property-format";
import { nightsLabel, sourceLabels, unbookableLabels } from "./format";
import { guestFieldError } from "./guest-errors";
import { emptyGuest, guestBody, GuestFields, GuestSearch, type GuestDraft } from "./guest-fields";
import { StayPriceBreakdown } from "./stay-price";

type GroupRoom = { room_type_id: string; rate_plan_id: string; name: string; total: { amount: number; currency: string }; guest: GuestDraft };

/**
 * /reservations/new: dates and party → every room type × rate plan priced, the unbookable ones
 * with their reason; pick one, enter the guest (an existing guest is matched by e-mail), book.
 * "Several rooms" books a group: rooms added from the quotes, one guest for all of them or a guest
 * for each, one master folio or one folio each.
 */
export function NewReservation({ propertyId, walkInsWithoutEmail = false }: { propertyId: string; walkInsWithoutEmail?: boolean }) {
  const today = useBusinessDate();
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [stay, setStay] = useState({ check_in: today, check_out: addDays(today, 1), adults: 1, children: 0 });
  const [choice, setChoice] = useState<{ room_type_id: string; rate_plan_id: string } | null>(null);
  const [guest, setGuest] = useState<GuestDraft>(emptyGuest);
  const [source, setSource] = useState("walk_in");
  const [notes, setNotes] = useState("");
  // "Several rooms": a group booking, each room added from the quotes; one guest or one per room, one or several folios.
  const [several, setSeveral] = useState(false);
  const [groupRooms, setGroupRooms] = useState<GroupRoom[]>([]);
  const [billing, setBilling] = useState<"master" | "individual">("master");
  const [guestPerRoom, setGuestPerRoom] = useState(false);

  const lookups = useQuery(trpc.reservations.lookups.queryOptions({ property_id: propertyId }));
  const datesValid = stay.check_in && stay.check_out && stay.adults >= 1;
  const quote = useQuery({
    ...trpc.reservations.quote.queryOptions({ property_id: propertyId, ...stay }),
    enabled: Boolean(datesValid),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const book = useMutation(
    trpc.reservations.create.mutationOptions({
      onSuccess: async (r) => {
        toast.success(`Booked ${r.guest.first_name} ${r.guest.last_name}, ${nightsLabel(r.nights)}`);
        await queryClient.invalidateQueries(trpc.reservations.search.queryFilter());
        router.push(`/reservations/${r.id}`);
      },
    }),
  );
  const bookGroup = useMutation(
    trpc.groups.create.mutationOptions({
      onSuccess: async (g) => {
        toast.success(`Booked ${g.reservations.length} rooms for ${g.name}`);
        await queryClient.invalidateQueries(trpc.reservations.search.queryFilter());
        router.push(`/groups/${g.id}`);
      },
    }),
  );
  const planName = (id: string) => lookups.data?.rate_plans.find((p) => p.id === id);
  const setStayField = (key: keyof typeof stay) => (e: { target: { value: string } }) => {
    setChoice(null);
    setGroupRooms([]);
    setStay((s) => ({ ...s, [key]: key === "adults" || key === "children" ? Math.max(0, Number(e.target.value) || 0) : e.target.value }));
  };

  const failure = book.error ? callError(book.error) : bookGroup.error ? callError(bookGroup.error) : null;
  const perRoom = several && guestPerRoom;
  // A refused guest field is shown at the field: the booker's (`guest.…`, room 1's own when each room has a guest) or a room's (`rooms.2.guest.…`).
  const guestError = perRoom ? null : guestFieldError(failure, "guest.");
  const roomGuestErrors = groupRooms.map((_, i) => guestFieldError(failure, `rooms.${i}.guest.`) ?? (perRoom && i === 0 ? guestFieldError(failure, "guest.") : null));
  const fieldError = guestError ?? roomGuestErrors.find(Boolean);
  const emailOptional = walkInsWithoutEmail && source === "walk_in";
  const setRoomGuest = (i: number) => (g: GuestDraft) => setGroupRooms((rooms) => rooms.map((r, k) => (k === i ? { ...r, guest: g } : r)));
  const selected = choice && quote.data?.data.find((t) => t.room_type_id === choice.room_type_id);
  const selectedQuote = selected?.quotes.find((q) => q.rate_plan_id === choice?.rate_plan_id);

  const groupTotal = groupRooms.reduce((s, r) => s + r.total.amount, 0);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An empty e-mail is left out: the server accepts that only for a walk-in where the property allows it, and says so otherwise.
    const who = guestBody(guest);
    const extra = { source: source as "walk_in", ...(notes.trim() ? { notes: notes.trim() } : {}) };
    if (several) {
      if (groupRooms.length < 2) return;
      const { adults, children, check_in, check_out } = stay;
      // With a guest for each room, the first room's guest is the booker (and names the group): the
      // first room takes the booker's, the others their own, so each guest is checked once.
      const rooms = groupRooms.map((r, i) => ({ room_type_id: r.room_type_id, rate_plan_id: r.rate_plan_id, adults, children, ...(perRoom && i > 0 ? { guest: guestBody(r.guest) } : {}) }));
      bookGroup.mutate({ property_id: propertyId, check_in, check_out, billing, guest: perRoom ? guestBody(groupRooms[0].guest) : who, rooms, ...extra });
      return;
    }
    if (!choice) return;
    book.mutate({ property_id: propertyId, ...stay, ...choice, guest: who, ...extra });
  };

  return (
    <>
      <Link href="/reservations" className="text-sm text-stone-500 hover:text-stone-800">
        ← Reservations
      </Link>
      <div className="mt-3">
        <PageHeader title="New reservation" description="Choose the dates and party, pick a room and rate, then enter the guest." />
      </div>
      <Choice label="Rooms in this booking" className="mb-4" options={["One room", "Several rooms"]} on={several} onChange={(value) => (setSeveral(value), setChoice(null), setGroupRooms([]))} />
      <Card title="1. Stay" className="mb-6">
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Field label="Check-in" htmlFor="new-check-in">
            <Input id="new-check-in" type="date" min={today} value={stay.check_in} onChange={setStayField("check_in")} />
          </Field>
          <Field label="Check-out" htmlFor="new-check-out">
            <Input id="new-check-out" type="date" min={stay.check_in} value={stay.check_out} onChange={setStayField("check_out")} />
          </Field>
          <Field label={several ? "Adults per room" : "Adults"} htmlFor="new-adults">
            <Input id="new-adults" type="number" min={1} max={20} value={stay.adults} onChange={setStayField("adults")} />
          </Field>
          <Field label={several ? "Children per room" : "Children"} htmlFor="new-children">
            <Input id="new-children" type="number" min={0} max={20} value={stay.children} onChange={setStayField("children")} />
          </Field>
        </div>
      </Card>

      <Card title={several ? "2. Rooms and rates" : "2. Room and rate"} className="mb-6">
        {several ? (
          <div className="mb-4 rounded-md bg-stone-50 px-3 py-2 text-sm" aria-live="polite">
            {groupRooms.length === 0 ? (
              <p className="text-stone-600">Add at least two rooms from the list below; each can be of another type.</p>
            ) : (
              <ul className="space-y-1" aria-label="Rooms chosen">
                {groupRooms.map((r, i) => (
                  <li key={i} className="flex flex-wrap items-center justify-between gap-2">
                    <span>
                      Room {i + 1}: {r.name} · <span className="tabular-nums">{fmt.money(r.total)}</span>
                    </span>
                    <Button variant="secondary" aria-label={`Remove room ${i + 1}`} onClick={() => (bookGroup.reset(), setGroupRooms((rooms) => rooms.filter((_, k) => k !== i)))}>
                      Remove
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        ) : null}
        {!datesValid ? (
          <EmptyState title="Enter the dates and at least one adult" />
        ) : quote.error ? (
          <ErrorState message={callError(quote.error).message} onRetry={() => quote.refetch()} />
        ) : !quote.data ? (
          <LoadingState rows={3} label="Pricing the stay…" />
        ) : quote.data.data.length === 0 ? (
          <EmptyState title="This property has no room types yet" />
        ) : (
          <div className="space-y-4" aria-busy={quote.isFetching || undefined}>
            <p className="text-sm text-stone-600">
              {fmt.day(quote.data.check_in, "long")} → {fmt.day(quote.data.check_out, "long")} · {nightsLabel(quote.data.nights)}
            </p>
            <ul className="space-y-3" aria-label="Room types and rates">
              {quote.data.data.map((type) => (
                <li key={type.room_type_id} className="rounded-md border border-stone-200" data-testid={`room-type-${type.room_type_id}`}>
                  <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-stone-100 bg-stone-50 px-3 py-2">
                    <h3 className="text-sm font-semibold text-stone-800">
                      {type.name}{" "}
                      <span className="font-normal text-stone-500">
                        ({type.code}, sleeps {type.max_occupancy})
                      </span>
                    </h3>
                    <span className="text-xs text-stone-500">{type.available} free on every night</span>
                  </div>
                  {type.quotes.length === 0 ? (
                    <p className="px-3 py-2 text-sm text-stone-500">No active rate plan covers this room type.</p>
                  ) : (
                    <ul className="divide-y divide-stone-100">
                      {type.quotes.map((q) => {
                        const plan = planName(q.rate_plan_id);
                        const isChosen = choice?.room_type_id === type.room_type_id && choice.rate_plan_id === q.rate_plan_id;
                        return (
                          <li
                            key={q.rate_plan_id}
                            className={cx("flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm", isChosen && "bg-teal-50")}
                            data-testid={`quote-${type.code}-${plan?.code ?? q.rate_plan_id}`}
                          >
                            <div className="min-w-0">
                              <p className="font-medium text-stone-800">
                                {plan?.name ?? q.rate_plan_id}{" "}
                                {plan ? (
                                  <Badge tone={plan.refundable ? "teal" : "amber"}>{plan.refundable ? "Refundable" : "Non-refundable"}</Badge>
                                ) : null}
                              </p>
                              <StayPriceBreakdown price={q.price} />
                              {q.bookable ? null : (
                                <p className="text-red-700" data-testid="unbookable-reason">
                                  {unbookableLabels[q.reason ?? ""] ?? q.reason}
                                </p>
                              )}
                            </div>
                            <div className="flex items-center gap-3">
                              <span className="tabular-nums font-medium">{fmt.money(q.price.gross)}</span>
                              {q.bookable && several ? (
                                <Button
                                  variant="secondary"
                                  aria-label={`Add room: ${type.name}, ${plan?.name ?? q.rate_plan_id}, ${fmt.money(q.price.gross)}`}
                                  onClick={() =>
                                    setGroupRooms((rooms) => [...rooms, { room_type_id: type.room_type_id, rate_plan_id: q.rate_plan_id, name: `${type.name}, ${plan?.name ?? ""}`, total: q.price.gross, guest: emptyGuest }])
                                  }
                                >
                                  Add room
                                </Button>
                              ) : q.bookable ? (
                                <Button
                                  variant={isChosen ? "primary" : "secondary"}
                                  aria-pressed={isChosen}
                                  aria-label={`Select ${type.name}, ${plan?.name ?? q.rate_plan_id}, ${fmt.money(q.price.gross)}`}
                                  onClick={() => setChoice({ room_type_id: type.room_type_id, rate_plan_id: q.rate_plan_id })}
                                >
                                  {isChosen ? "Selected" : "Select"}
                                </Button>
                              ) : (
                                <span className="text-xs text-stone-500">Not bookable</span>
                              )}
                            </div>
                          </li>
                        );
                      })}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
      </Card>

      <Card title={perRoom ? "3. Guests" : "3. Guest"}>
        <form onSubmit={submit} noValidate aria-label="Guest and booking" className="space-y-4">
          {several ? (
            <Choice label="Guests of the rooms" options={["One guest for all rooms", "A guest for each room"]} on={guestPerRoom} onChange={(value) => (bookGroup.reset(), setGuestPerRoom(value))} />
          ) : null}
          <p className="text-sm text-stone-500">
            Find a guest on file, or type a new one: a guest already on file with this e-mail is reused, as the API does; a new e-mail creates the guest.
          </p>
          {failure && !fieldError ? <Alert>{failure.message}</Alert> : null}
          {perRoom ? (
            groupRooms.length === 0 ? (
              <p className="text-sm text-stone-500">Add the rooms above first; each then gets its guest here.</p>
            ) : (
              <ol className="space-y-4" aria-label="Guest of each room">
                {groupRooms.map((room, i) => (
                  <li key={i}>
                    <fieldset className="rounded-md border border-stone-200 p-3" data-testid="room-guest">
                      <legend className="px-1 text-sm font-semibold text-stone-800">
                        Room {i + 1}: {room.name}
                      </legend>
                      <div className="grid gap-4 sm:grid-cols-2">
                        <GuestSearch id={`room-${i}-guest-search`} label={`Find room ${i + 1}'s guest on file`} onPick={setRoomGuest(i)} />
                        <GuestFields idPrefix={`room-${i}-guest`} guest={room.guest} onChange={setRoomGuest(i)} error={roomGuestErrors[i]} emailOptional={emailOptional} />
                      </div>
                    </fieldset>
                  </li>
                ))}
              </ol>
            )
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2">
            {perRoom ? null : (
              <>
                <GuestSearch id="new-guest-search" label="Find a guest on file" onPick={setGuest} />
                <GuestFields idPrefix="new-guest" guest={guest} onChange={setGuest} error={guestError} emailOptional={emailOptional} />
              </>
            )}
            <Field label="Source" htmlFor="new-source">
              <Select id="new-source" value={source} onChange={(e) => setSource(e.target.value)}>
                {Object.entries(sourceLabels)
                  .filter(([value]) => value !== "channel" && value !== "api")
                  .map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
              </Select>
            </Field>
            <Field label="Notes (optional)" htmlFor="new-notes">
              <Textarea id="new-notes" rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
            </Field>
            {several ? (
              <Field label="Folios" htmlFor="new-billing">
                <Select id="new-billing" value={billing} onChange={(e) => setBilling(e.target.value as "master" | "individual")}>
                  <option value="master">One master folio for every room</option>
                  <option value="individual">One folio per room</option>
                </Select>
              </Field>
            ) : null}
          </div>
          {several ? (
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" disabled={groupRooms.length < 2 || bookGroup.isPending}>
                {bookGroup.isPending ? "Booking…" : groupRooms.length >= 2 ? `Book ${groupRooms.length} rooms for ${fmt.money({ amount: groupTotal, currency: groupRooms[0].total.currency })}` : "Book"}
              </Button>
              {groupRooms.length < 2 ? <span className="text-sm text-stone-500">Add at least two rooms above first.</span> : null}
            </div>
          ) : (
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" disabled={!choice || book.isPending}>
                {book.isPending ? "Booking…" : selectedQuote ? `Book for ${fmt.money(selectedQuote.price.gross)}` : "Book"}
              </Button>
              {!choice ? <span className="text-sm text-stone-500">Select a room and rate above first.</span> : null}
            </div>
          )}
        </form>
      </Card>
    </>
  );
}

/** Two pressed-or-not buttons for a yes/no choice of the booking: `options` are the words for off and on. */
function Choice({ label, options, on, onChange, className }: { label: string; options: [string, string]; on: boolean; onChange: (on: boolean) => void; className?: string }) {
  return (
    <div className={cx("inline-flex rounded-md border border-stone-300 p-0.5", className)} role="group" aria-label={label}>
      {options.map((words, i) => (
        <button
          key={words}
          type="button"
          aria-pressed={on === (i === 1)}
          onClick={() => onChange(i === 1)}
          className={cx("rounded px-3 py-1.5 text-sm font-medium", on === (i === 1) ? "bg-teal-700 text-white" : "text-stone-700 hover:bg-stone-100")}
        >
          {words}
        </button>
      ))}
    </div>
  );
}
