import { z } from "@hono/zod-openapi";
import { date, idOf, money, queryInteger, timestamp } from "@/server/schemas";
import { unbookableReasons } from "@/server/rates/quote";
import { stayPriceSchema } from "@/server/folios/folios";

export const inventoryQuery = z.strictObject({ property_id: z.string().min(1), room_type_id: z.string().optional(), from: date, to: date });

export const inventoryCalendarSchema = z
  .object({
    object: z.literal("inventory_calendar"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    from: date,
    to: date,
    data: z.array(
      z.object({
        date,
        room_type_id: idOf("rt"),
        total: z.number().int(),
        sold: z.number().int(),
        out_of_order: z.number().int(),
        held: z.number().int(),
        available: z.number().int(),
      }),
    ),
  })
  .openapi("InventoryCalendar");

export const holdSchema = z
  .object({
    id: idOf("hold"),
    object: z.literal("inventory_hold"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    room_type_id: idOf("rt"),
    from: date,
    to: date,
    rooms: z.number().int(),
    created_at: timestamp,
    released_at: timestamp.nullable(),
  })
  .openapi("InventoryHold");

export const holdCreateSchema = z
  .strictObject({ property_id: z.string().min(1), room_type_id: z.string().min(1), from: date, to: date, rooms: z.number().int().min(1).max(1000) })
  .openapi("InventoryHoldCreate");

export const holdListQuery = z.strictObject({ property_id: z.string().optional(), room_type_id: z.string().optional() });

export const availabilityQuery = z.strictObject({
  property_id: z.string().min(1),
  check_in: date,
  check_out: date,
  adults: queryInteger({ min: 1, max: 20 }),
  children: queryInteger({ min: 0, max: 20 }).default(0).openapi({ default: 0 }),
  room_type_id: z.string().optional(),
});

const quoteSchema = z
  .object({
    rate_plan_id: idOf("rp"),
    total: money.openapi({ description: "The sum of the nightly rates as loaded." }),
    nightly: z.array(z.object({ date, amount: z.number().int() })),
    price: stayPriceSchema.openapi({
      description: "What booking this quote would charge on the folio, with the property's taxes in force now: net, tax, gross and each tax's share (per-person fees for the adults and children asked for). Computed by the same rule that posts the folio's lines, so a booking made now charges exactly this.",
    }),
    bookable: z.boolean(),
    reason: z.enum(unbookableReasons).optional(),
  })
  .openapi("Quote");

export const availabilitySchema = z
  .object({
    object: z.literal("availability"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    check_in: date,
    check_out: date,
    nights: z.number().int(),
    adults: z.number().int(),
    children: z.number().int(),
    data: z.array(
      z.object({
        room_type_id: idOf("rt"),
        code: z.string(),
        name: z.string(),
        max_occupancy: z.number().int(),
        available: z.number().int().openapi({ description: "Rooms free on every night of the stay (the minimum over the nights)." }),
        quotes: z.array(quoteSchema),
      }),
    ),
  })
  .openapi("Availability");

export type HoldCreate = z.output<typeof holdCreateSchema>;
export type AvailabilityQuery = z.output<typeof availabilityQuery>;
