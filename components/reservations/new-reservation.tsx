"use client";

import { useBusinessDate } from "@/components/shell/business-date";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useFieldArray } from "react-hook-form";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Card, Input, PageHeader, Select, Textarea, cx } from "@/components/ui";
import { Form, FormError, FormField, FormScope, showServerError, useZodForm, type ErrorWords } from "@/components/ui/form";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { addDays } from "@/lib/dates";
import { usePropertyFormat } from "@/components/ui/property-format";
import { nightsLabel, sourceLabels, unbookableLabels } from "./format";
import { guestFieldError } from "./guest-errors";
import { emptyGuest, guestBody, guestDraft, GuestFields, GuestSearch } from "./guest-fields";
import { StayPriceBreakdown } from "./stay-price";

const bookingForm = z.object({
  check_in: z.string(),
  check_out: z.string(),
  adults: z.number({ error: "Enter the number of adults." }).int("A whole number.").min(1, "At least 1 adult."),
  children: z.number({ error: "Enter the number of children, or 0." }).int("A whole number.").min(0, "0 or more."),
  source: z.string(),
  notes: z.string(),
  billing: z.enum(["master", "individual"]),
  guest: guestDraft,
  // "Several rooms": each room added from the quotes, with its own guest when each room has one.
  rooms: z.array(z.object({ room_type_id: z.string(), rate_plan_id: z.string(), name: z.string(), total: z.object({ amount: z.number(), currency: z.string() }), guest: guestDraft })),
});
type BookingForm = z.input<typeof bookingForm>;
type Booking = z.output<typeof bookingForm>;

/** A count as the quote asks for it: a whole number, 0 for an empty field. */
const count = (n: number) => Math.max(0, Math.trunc(n) || 0);

/** A refused guest field in the desk's words, without the API's names (guest-errors.ts). */
const guestWords: ErrorWords = (message, { field }) => (field?.includes("guest.") ? (guestFieldError({ message, param: field }, field.slice(0, field.lastIndexOf(".") + 1))?.message ?? message) : message);
const guestNames = ["first_name", "last_name", "email", "phone"] as const;
/** With a guest for each room, the booker's fields are room 1's. */
const bookerIsRoomOne = Object.fromEntries(guestNames.map((k) => [`guest.${k}`, `rooms.0.guest.${k}`])) as Record<string, `rooms.0.guest.${(typeof guestNames)[number]}`>;

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
  const form = useZodForm(bookingForm, {
    defaultValues: { check_in: today, check_out: addDays(today, 1), adults: 1, children: 0, source: "walk_in", notes: "", billing: "master", guest: emptyGuest, rooms: [] },
  });
  const rooms = useFieldArray({ control: form.control, name: "rooms" });
  const groupRooms = form.watch("rooms");
  const [check_in, check_out, adults, children, source] = form.watch(["check_in", "check_out", "adults", "children", "source"]);
  const stay = { check_in, check_out, adults: count(adults), children: count(children) };
  const [choice, setChoice] = useState<{ room_type_id: string; rate_plan_id: string } | null>(null);
  const [several, setSeveral] = useState(false);
  const [guestPerRoom, setGuestPerRoom] = useState(false);

  const lookups = useQuery(trpc.reservations.lookups.queryOptions({ property_id: propertyId }));
  const datesValid = stay.check_in && stay.check_out && stay.adults >= 1;
  const quote = useQuery({
    ...trpc.reservations.quote.queryOptions({ property_id: propertyId, ...stay }),
    enabled: Boolean(datesValid),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const perRoom = several && guestPerRoom;
  // A refused guest field is shown at the field: the booker's (`guest.…`, room 1's own when each room has a guest) or a room's (`rooms.2.guest.…`).
  const onError = (e: unknown) => showServerError<BookingForm>(form, e, perRoom ? bookerIsRoomOne : {}, guestWords);
  const book = useMutation(
    trpc.reservations.create.mutationOptions({
      onSuccess: async (r) => {
        toast.success(`Booked ${r.guest.first_name} ${r.guest.last_name}, ${nightsLabel(r.nights)}`);
        await queryClient.invalidateQueries(trpc.reservations.search.queryFilter());
        router.push(`/reservations/${r.id}`);
      },
      onError,
    }),
  );
  const bookGroup = useMutation(
    trpc.groups.create.mutationOptions({
      onSuccess: async (g) => {
        toast.success(`Booked ${g.reservations.length} rooms for ${g.name}`);
        await queryClient.invalidateQueries(trpc.reservations.search.queryFilter());
        router.push(`/groups/${g.id}`);
      },
      onError,
    }),
  );
  const planName = (id: string) => lookups.data?.rate_plans.find((p) => p.id === id);
  // Other dates or another party: the rooms chosen were priced for the stay before.
  const stayChanged = { onChange: () => (setChoice(null), rooms.replace([])) };
  const emailOptional = walkInsWithoutEmail && source === "walk_in";
  const selected = choice && quote.data?.data.find((t) => t.room_type_id === choice.room_type_id);
  const selectedQuote = selected?.quotes.find((q) => q.rate_plan_id === choice?.rate_plan_id);

  const groupTotal = groupRooms.reduce((s, r) => s + r.total.amount, 0);
  const submit = (v: Booking) => {
    // An empty e-mail is left out: the server accepts that only for a walk-in where the property allows it, and says so otherwise.
    const who = guestBody(v.guest);
    const extra = { source: v.source as "walk_in", ...(v.notes.trim() ? { notes: v.notes.trim() } : {}) };
    const party = { adults: count(v.adults), children: count(v.children) };
    if (several) {
      if (v.rooms.length < 2) return;
      // With a guest for each room, the first room's guest is the booker (and names the group): the
      // first room takes the booker's, the others their own, so each guest is checked once.
      const booked = v.rooms.map((r, i) => ({ room_type_id: r.room_type_id, rate_plan_id: r.rate_plan_id, ...party, ...(perRoom && i > 0 ? { guest: guestBody(r.guest) } : {}) }));
      bookGroup.mutate({ property_id: propertyId, check_in: v.check_in, check_out: v.check_out, billing: v.billing, guest: perRoom ? guestBody(v.rooms[0].guest) : who, rooms: booked, ...extra });
      return;
    }
    if (!choice) return;
    book.mutate({ property_id: propertyId, check_in: v.check_in, check_out: v.check_out, ...party, ...choice, guest: who, ...extra });
  };

  return (
    <FormScope form={form}>
      <Link href="/reservations" className="text-sm text-stone-500 hover:text-stone-800">
        ← Reservations
      </Link>
      <div className="mt-3">
        <PageHeader title="New reservation" description="Choose the dates and party, pick a room and rate, then enter the guest." />
      </div>
      <Choice label="Rooms in this booking" className="mb-4" options={["One room", "Several rooms"]} on={several} onChange={(value) => (setSeveral(value), setChoice(null), rooms.replace([]))} />
      <Card title="1. Stay" className="mb-6">
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <FormField<BookingForm> name="check_in" label="Check-in" options={stayChanged}>
            {(control) => <Input {...control} type="date" min={today} />}
          </FormField>
          <FormField<BookingForm> name="check_out" label="Check-out" options={stayChanged}>
            {(control) => <Input {...control} type="date" min={check_in} />}
          </FormField>
          <FormField<BookingForm> name="adults" label={several ? "Adults per room" : "Adults"} options={{ ...stayChanged, valueAsNumber: true }}>
            {(control) => <Input {...control} type="number" min={1} max={20} />}
          </FormField>
          <FormField<BookingForm> name="children" label={several ? "Children per room" : "Children"} options={{ ...stayChanged, valueAsNumber: true }}>
            {(control) => <Input {...control} type="number" min={0} max={20} />}
          </FormField>
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
                    <Button variant="secondary" aria-label={`Remove room ${i + 1}`} onClick={() => (bookGroup.reset(), form.clearErrors(), rooms.remove(i))}>
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
                                  onClick={() => rooms.append({ room_type_id: type.room_type_id, rate_plan_id: q.rate_plan_id, name: `${type.name}, ${plan?.name ?? ""}`, total: q.price.gross, guest: emptyGuest })}
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
        <Form form={form} onSubmit={submit} aria-label="Guest and booking" className="space-y-4">
          {several ? (
            <Choice
              label="Guests of the rooms"
              options={["One guest for all rooms", "A guest for each room"]}
              on={guestPerRoom}
              onChange={(value) => (bookGroup.reset(), form.clearErrors(), setGuestPerRoom(value))}
            />
          ) : null}
          <p className="text-sm text-stone-500">
            Find a guest on file, or type a new one: a guest already on file with this e-mail is reused, as the API does; a new e-mail creates the guest.
          </p>
          <FormError />
          {perRoom ? (
            rooms.fields.length === 0 ? (
              <p className="text-sm text-stone-500">Add the rooms above first; each then gets its guest here.</p>
            ) : (
              <ol className="space-y-4" aria-label="Guest of each room">
                {rooms.fields.map((room, i) => (
                  <li key={room.id}>
                    <fieldset className="rounded-md border border-stone-200 p-3" data-testid="room-guest">
                      <legend className="px-1 text-sm font-semibold text-stone-800">
                        Room {i + 1}: {room.name}
                      </legend>
                      <div className="grid gap-4 sm:grid-cols-2">
                        <GuestSearch id={`room-${i}-guest-search`} label={`Find room ${i + 1}'s guest on file`} onPick={(g) => form.setValue(`rooms.${i}.guest`, g)} />
                        <GuestFields prefix={`rooms.${i}.guest`} emailOptional={emailOptional} />
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
                <GuestSearch id="new-guest-search" label="Find a guest on file" onPick={(g) => form.setValue("guest", g)} />
                <GuestFields prefix="guest" emailOptional={emailOptional} />
              </>
            )}
            <FormField<BookingForm> name="source" label="Source">
              {(control) => (
                <Select {...control}>
                  {Object.entries(sourceLabels)
                    .filter(([value]) => value !== "channel" && value !== "api")
                    .map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                </Select>
              )}
            </FormField>
            <FormField<BookingForm> name="notes" label="Notes (optional)">
              {(control) => <Textarea {...control} rows={2} />}
            </FormField>
            {several ? (
              <FormField<BookingForm> name="billing" label="Folios">
                {(control) => (
                  <Select {...control}>
                    <option value="master">One master folio for every room</option>
                    <option value="individual">One folio per room</option>
                  </Select>
                )}
              </FormField>
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
        </Form>
      </Card>
    </FormScope>
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
