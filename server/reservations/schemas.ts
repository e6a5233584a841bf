import { z } from "@hono/zod-openapi";
import { reservationStatuses } from "@/db/schema";
import { stayPriceSchema } from "@/server/folios/folios";
import { searchTerm } from "@/server/guests/search";
import { clockTime } from "@/server/properties/schemas";
import { date, emailAddress, idOf, money, queryTimestamp, timestamp } from "@/server/schemas";

export const sources = ["direct", "api", "phone", "email", "walk_in", "channel", "booking_engine"] as const;
export const channels = ["booking_com", "expedia", "airbnb", "agoda", "hotelbeds", "other"] as const;

const name = z.string().trim().min(1).max(200);
const metadata = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((m) => Object.keys(m).length <= 20, "At most 20 metadata keys.")
  .openapi({
    description: "Up to 20 string key/value pairs of your own: keys 1–40 characters, values up to 500.",
    maxProperties: 20,
    // JSON Schema 2020-12 keyword the metadata type does not list; it reaches the document as given.
    ...({ propertyNames: { minLength: 1, maxLength: 40 } } as object),
  });

/** A Stripe payment method id, as Stripe.js (the Payment Element) hands it to the browser. */
export const processorPaymentMethod = z
  .string()
  .regex(/^pm_[A-Za-z0-9_]{1,250}$/, "Expected a Stripe payment method id (pm_…).")
  .openapi({ description: "The card as the property's processor holds it (Stripe's `pm_…`, collected in the browser by Stripe.js). Never a card number." });

/** The card a stay is guaranteed with: saved at the property's processor, charged later without the guest. */
export const guaranteeInput = z
  .strictObject({ type: z.literal("card"), processor_payment_method: processorPaymentMethod })
  .openapi("GuaranteeInput", { example: { type: "card", processor_payment_method: "pm_card_visa" } });

export const guaranteeSchema = z
  .object({
    type: z.literal("card"),
    status: z.enum(["active", "requires_action"]).openapi({
      description: "`active`: on file, chargeable without the guest (a no-show fee, a pre-authorisation). `requires_action`: the guest's bank asks them to authenticate the card first (3-D Secure); see `next_action`.",
    }),
    card: z.object({ brand: z.string(), last4: z.string(), exp_month: z.number().int().nullable(), exp_year: z.number().int().nullable() }).nullable(),
    next_action: z
      .object({
        type: z.literal("use_stripe_sdk"),
        client_secret: z.string().openapi({ description: "Stripe's SetupIntent client secret: Stripe.js `confirmCardSetup(client_secret)` in the guest's browser completes it." }),
      })
      .nullable(),
    created_at: timestamp,
  })
  .openapi("Guarantee");

/** What a booking's rate plan asked as a deposit, kept with the stay. */
const depositSchema = z
  .object({
    amount: z.number().int().openapi({ description: "Minor units: 12900 USD is $129.00." }),
    currency: z.string().length(3).openapi({ example: "USD" }),
  })
  .nullable()
  .openapi("ReservationDeposit", {
    description:
      "What the rate plan asked as a deposit at booking (its `deposit` on the nights booked), kept as booked; null when it asked none. Taken from the card on file given with the booking, as a payment on the folio; a booking without a card has it still to pay.",
  });

export const reservationSchema = z
  .object({
    id: idOf("res"),
    object: z.literal("reservation"),
    livemode: z.boolean(),
    status: z.enum(reservationStatuses),
    property_id: idOf("prop"),
    check_in: date,
    check_out: date,
    nights: z.number().int(),
    adults: z.number().int(),
    children: z.number().int(),
    room_type_id: idOf("rt"),
    rate_plan_id: idOf("rp"),
    room_id: z.string().nullable(),
    folio_id: idOf("fol").openapi({ description: "The folio its charges go to: its own, or its group's master folio (shared by the group's rooms)." }),
    group_id: idOf("grp").nullable().openapi({ description: "The group (several rooms in one booking) the reservation is a room of; null for a booking on its own." }),
    total: money.openapi({ description: "The sum of the nightly rates as loaded (inside or before taxes, as the property's taxes say); `price` states what the folio charges for them." }),
    nightly: z.array(z.object({ date, amount: z.number().int() })),
    price: stayPriceSchema.openapi({
      description: "The stay's room nights and per-night taxes as its folio charges them: net, tax, gross and each tax's share. Kept from when the nights were posted (booking, change of dates, room type or party, early departure, extension, upgrade), like the folio's lines.",
    }),
    guest: z.object({ id: idOf("gst"), first_name: z.string(), last_name: z.string(), email: z.string().nullable() }),
    source: z.enum(sources),
    channel: z.enum(channels).nullable(),
    notes: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    cancelled_at: timestamp.nullable(),
    cancellation_reason: z.string().nullable(),
    checked_in_at: timestamp.nullable(),
    checked_out_at: timestamp.nullable(),
    late_check_out: z
      .object({
        granted_at: timestamp,
        until: z.string().nullable().openapi({ description: "The hour the guest may stay to on the departure day, HH:MM on the hotel's clock; null when the grant named none.", example: "14:00" }),
      })
      .nullable()
      .openapi("ReservationLateCheckOut", { description: "The late check-out granted for the departure day (`POST /v1/reservations/{id}/late_check_out`), or null." }),
    guarantee: guaranteeSchema.nullable().openapi({ description: "The card on file the stay is guaranteed with, if any: brand and last four only." }),
    deposit: depositSchema,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("Reservation");

export const reservationCreateSchema = z
  .strictObject({
    property_id: z.string().min(1),
    guest: z.strictObject({
      first_name: name,
      last_name: name,
      email: emailAddress.optional().openapi({
        description: "Required, except for a walk-in (`source: walk_in`) at a property with `walk_ins_without_email`; without it the guest is matched by phone and last name.",
      }),
      phone: z.string().trim().min(3).max(40).nullish().openapi({ example: "+1 212 555 0100" }),
    }),
    check_in: date,
    check_out: date,
    room_type_id: z.string().min(1),
    rate_plan_id: z.string().min(1),
    adults: z.number().int().min(1).max(20),
    children: z.number().int().min(0).max(20).default(0),
    source: z.enum(sources).default("api"),
    channel: z.enum(channels).nullish(),
    notes: z.string().max(2000).nullish(),
    metadata: metadata.optional(),
    guarantee: guaranteeInput.optional().openapi({
      description:
        "A card on file as the booking's guarantee, saved at the property's Stripe account for charges without the guest (a no-show fee, a pre-authorisation at check-in). A card the bank refuses answers 402 and books nothing. Where the rate plan asks a `deposit`, it is taken from this card with the booking: a deposit the bank refuses answers 402 and books nothing.",
    }),
  })
  .openapi("ReservationCreate");

export const reservationUpdateSchema = z
  .strictObject({
    check_in: date.optional(),
    check_out: date.optional(),
    room_type_id: z.string().min(1).optional(),
    rate_plan_id: z.string().min(1).optional(),
    adults: z.number().int().min(1).max(20).optional(),
    children: z.number().int().min(0).max(20).optional(),
    guest: z.strictObject({ first_name: name.optional(), last_name: name.optional() }).optional(),
    notes: z.string().max(2000).nullish(),
    metadata: metadata.optional(),
  })
  .openapi("ReservationUpdate");

/** The orders a reservation list can be read in (docs/api-conventions.md §5). */
export const reservationOrders = ["created", "check_in"] as const;

export const reservationListQuery = z.strictObject({
  search: searchTerm.optional().openapi({
    description:
      "Any part of the guest's first or last name, e-mail or phone, or of the reservation's id; case- and accent-insensitive, every word must match.",
  }),
  order: z.enum(reservationOrders).default("created").openapi({
    description: "`created`: newest first, id breaking ties (the default). `check_in`: by arrival date, earliest first, id breaking ties.",
  }),
  status: z.enum(reservationStatuses).optional(),
  property_id: z.string().optional(),
  guest_id: z.string().optional(),
  check_in_from: date.optional(),
  check_in_to: date.optional().openapi({ description: "Exclusive." }),
  updated_since: queryTimestamp("Reservations changed at or after this instant.").optional(),
});

export const cancelSchema = z.strictObject({ reason: z.string().trim().min(1).max(500).optional() }).openapi("ReservationCancel");
export const checkInSchema = z.strictObject({ room_id: z.string().min(1).optional() }).openapi("ReservationCheckIn");
export { emptyActionSchema } from "@/server/schemas";

export const lateCheckOutSchema = z
  .strictObject({
    until: clockTime.optional().openapi({
      description: "The hour the guest may stay to on the departure day, HH:MM on the hotel's clock; later than the property's `check_out_time`. Left out: a late check-out with no hour said.",
      example: "14:00",
    }),
  })
  .openapi("LateCheckOutGrant");
export const changeDepartureSchema = z
  .strictObject({
    check_out: date.openapi({
      description:
        "The new departure date. Earlier than the booked one: an early departure (not before the property's today, nor before the arrival night is over). Later: an extension, priced at the rate plan's rates and sold like a booking's nights.",
    }),
  })
  .openapi("ReservationChangeDeparture");

export const guaranteeUpdateSchema = z.strictObject({ processor_payment_method: processorPaymentMethod }).openapi("ReservationGuarantee");

export type ReservationCreate = z.output<typeof reservationCreateSchema>;
export type ReservationUpdate = z.output<typeof reservationUpdateSchema>;
export type ReservationFilters = z.output<typeof reservationListQuery>;

export const moveRoomSchema = z
  .strictObject({
    room_id: z.string().min(1).openapi({ description: "A free, clean or inspected room of the stay's room type." }),
    reason: z.string().trim().min(1).max(500).optional(),
  })
  .openapi("ReservationMoveRoom");

export const roomMoveSchema = z
  .object({
    id: idOf("rmv"),
    object: z.literal("room_move"),
    livemode: z.boolean(),
    reservation_id: idOf("res"),
    from_room_id: idOf("room"),
    to_room_id: idOf("room"),
    reason: z.string().nullable(),
    created_at: timestamp,
  })
  .openapi("RoomMove");

export const upgradeCharges = ["difference", "none"] as const;

export const upgradeSchema = z
  .strictObject({
    room_type_id: z.string().min(1).openapi({ description: "Another room type of the property, sleeping the stay's party." }),
    charge: z.enum(upgradeCharges).openapi({
      description:
        "`difference`: the nights moved are re-priced at the rate plan's rates for the new type (which the plan must cover), and the folio's room charges follow. `none`: a complimentary upgrade; the nights keep their price and their folio lines say so.",
    }),
    room_id: z.string().min(1).optional().openapi({ description: "For a guest in house: the free, clean or inspected room of the new type to move to; without it, the first ready one." }),
  })
  .openapi("ReservationUpgrade");

export type ReservationUpgrade = z.output<typeof upgradeSchema>;
