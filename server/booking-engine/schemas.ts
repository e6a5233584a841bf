import { z } from "@hono/zod-openapi";
import { reservationCreateSchema } from "@/server/reservations/schemas";
import { date, idOf, queryInteger, timestamp } from "@/server/schemas";

/**
 * The last part of the engine's public address, `/book/<slug>`: 3–63 lower-case letters, digits
 * and single hyphens between them, unique across every hotel on this server.
 */
export const slugSchema = z
  .string()
  .min(3, "must be at least 3 characters")
  .max(63, "must be at most 63 characters")
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Use lower-case letters, digits and single hyphens between them, such as harbor-house.")
  .openapi({ example: "harbor-house" });

/** Slugs a hotel may not take: the engine's own paths. */
export const reservedSlugs = new Set(["api", "book", "static", "assets"]);

export const bookingEngineSchema = z
  .object({
    object: z.literal("booking_engine"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    enabled: z.boolean().openapi({ description: "Whether guests can search and book the property at `path`." }),
    slug: slugSchema.nullable().openapi({ description: "The address's last part; null until the owner sets one." }),
    path: z.string().nullable().openapi({ description: "The engine's address on this server, `/book/<slug>` (null without a slug). Link to it from the hotel's website.", example: "/book/harbor-house" }),
    rate_plan_ids: z.array(idOf("rp")).openapi({ description: "The rate plans sold on the engine (active plans only are offered)." }),
    updated_at: timestamp.nullable().openapi({ description: "When the settings last changed; null while never set." }),
  })
  .openapi("BookingEngine", {
    description: "A property's direct booking engine: a public page where guests search, choose and book without an account, in their language.",
  });

export const bookingEngineUpdateSchema = z
  .strictObject({
    enabled: z.boolean().optional().openapi({ description: "true opens the engine to guests; it needs a slug and at least one rate plan." }),
    slug: slugSchema.nullable().optional().openapi({ description: "The address's last part. Changing it moves the engine: the old address stops answering." }),
    rate_plan_ids: z.array(z.string().min(1).max(64)).max(100).optional().openapi({ description: "Replaces the plans sold on the engine; each must be a plan of this property." }),
  })
  .openapi("BookingEngineUpdate");

export type BookingEngineUpdate = z.output<typeof bookingEngineUpdateSchema>;

/** What a guest searches for: the stay's dates and the party. */
export const engineSearchQuery = z.strictObject({
  check_in: date,
  check_out: date,
  adults: queryInteger({ min: 1, max: 20 }).default(2),
  children: queryInteger({ min: 0, max: 20 }).default(0),
});
export type EngineSearch = z.output<typeof engineSearchQuery>;

/** The stay a guest chose (a room type and one of its rates), sent by the search page's form. */
export const engineChoiceSchema = z.strictObject({
  check_in: date,
  check_out: date,
  adults: queryInteger({ min: 1, max: 20 }),
  children: queryInteger({ min: 0, max: 20 }).default(0),
  room_type_id: z.string().min(1).max(64),
  rate_plan_id: z.string().min(1).max(64),
  lang: z.string().max(8).optional(),
});
export type EngineChoice = z.output<typeof engineChoiceSchema>;

/** The guest as the API takes them (POST /v1/reservations), with an e-mail always: the confirmation goes to it. */
const apiGuest = reservationCreateSchema.shape.guest;
export const engineGuestSchema = apiGuest.extend({ email: apiGuest.shape.email.unwrap() });

/** A time of arrival the guest expects, "HH:MM" on the hotel's clock. */
const arrivalTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Expected a time as HH:MM.");

export const engineBookingSchema = z.strictObject({
  token: z.string().min(20).max(100),
  guest: engineGuestSchema,
  arrival_time: arrivalTime.nullish(),
  special_requests: z.string().trim().max(1000).nullish(),
  /** The honeypot: a field people never see (hidden from sight and from assistive technology), so never fill. */
  website: z.string().max(500).optional(),
});
export type EngineBooking = z.output<typeof engineBookingSchema>;

export const engineTokenSchema = z.strictObject({ token: z.string().min(20).max(100) });

/** The manage link's token, as the manage page's forms send it. */
const manageToken = z.string().min(20).max(100);

/** A change of dates or party from the manage page, with the total the guest was shown for it (minor units). */
export const engineManageChangeSchema = z.strictObject({
  token: manageToken,
  check_in: date,
  check_out: date,
  adults: queryInteger({ min: 1, max: 20 }),
  children: queryInteger({ min: 0, max: 20 }).default(0),
  total: queryInteger({ min: 0, max: 1_000_000_000 }),
  lang: z.string().max(8).optional(),
});

/** Special requests added from the manage page. */
export const engineManageRequestsSchema = z.strictObject({
  token: manageToken,
  special_requests: z.string().trim().min(1).max(1000),
  lang: z.string().max(8).optional(),
});

/** A cancellation from the manage page, with the fee the guest was shown (minor units; 0 when free). */
export const engineManageCancelSchema = z.strictObject({
  token: manageToken,
  fee: queryInteger({ min: 0, max: 1_000_000_000 }),
  lang: z.string().max(8).optional(),
});

/** The month of prices a guest looks at: `YYYY-MM` and the party (the taxes and the rooms that fit depend on it). */
export const engineCalendarQuery = z.strictObject({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Expected a month as YYYY-MM, such as 2026-12."),
  adults: queryInteger({ min: 1, max: 20 }).default(2),
  children: queryInteger({ min: 0, max: 20 }).default(0),
});
export type EngineCalendarQuery = z.output<typeof engineCalendarQuery>;
