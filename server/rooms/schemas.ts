import { z } from "@hono/zod-openapi";
import { housekeepingStatuses } from "@/db/schema";
import { date, idOf, timestamp } from "@/server/schemas";

export const roomTypeSchema = z
  .object({
    id: idOf("rt"),
    object: z.literal("room_type"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    code: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    beds: z.string().nullable().openapi({ description: "The beds in words.", example: "1 king" }),
    max_occupancy: z.number().int(),
    base_occupancy: z.number().int(),
    room_count: z.number().int().openapi({ description: "Rooms in service (retired rooms are not counted)." }),
    amenities: z.array(z.string()),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("RoomType");

const code = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9_-]+$/, "Letters, digits, '-' and '_' only.");
const amenities = z.array(z.string().trim().min(1).max(50)).max(50);
const beds = z.string().trim().max(100).openapi({ description: "The beds in words.", example: "1 king" });

export const roomTypeCreateSchema = z
  .strictObject({
    property_id: z.string().min(1),
    code,
    name: z.string().trim().min(1).max(100),
    description: z.string().max(2000).nullish(),
    beds: beds.nullish(),
    max_occupancy: z.number().int().min(1).max(20),
    base_occupancy: z.number().int().min(1).max(20).optional(),
    amenities: amenities.optional(),
  })
  .openapi("RoomTypeCreate");

export const roomTypeUpdateSchema = z
  .strictObject({
    code: code.optional(),
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(2000).nullish(),
    beds: beds.nullish(),
    max_occupancy: z.number().int().min(1).max(20).optional(),
    base_occupancy: z.number().int().min(1).max(20).optional(),
    amenities: amenities.optional(),
  })
  .openapi("RoomTypeUpdate");

export const roomSchema = z
  .object({
    id: idOf("room"),
    object: z.literal("room"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    room_type_id: idOf("rt"),
    number: z.string(),
    floor: z.number().int().nullable(),
    housekeeping_status: z.enum(housekeepingStatuses),
    occupied: z.boolean(),
    out_of_order_reason: z.string().nullable(),
    out_of_order_until: z.string().nullable().openapi({ format: "date" }),
    retired_at: timestamp
      .nullable()
      .openapi({ description: "When the room was taken out of the hotel: no longer sold, assigned or cleaned. Its stays and history remain." }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("Room");

export const roomCreateSchema = z
  .strictObject({
    room_type_id: z.string().min(1),
    number: z.string().trim().min(1).max(20),
    floor: z.number().int().min(-5).max(200).nullish(),
  })
  .openapi("RoomCreate");

/** Room numbers are text; a range runs over numbers made of digits only, keeping the first's width. */
const rangeEnd = z
  .string()
  .trim()
  .regex(/^\d{1,9}$/, "Expected a room number made of digits, such as 101.");
export const maxRoomsPerRange = 500;

export const roomRangeCreateSchema = z
  .strictObject({
    room_type_id: z.string().min(1),
    from_number: rangeEnd.openapi({ description: "First number of the range (digits; leading zeros keep their width).", example: "101" }),
    to_number: rangeEnd.openapi({ description: "Last number of the range, included.", example: "120" }),
    floor: z.number().int().min(-5).max(200).nullish(),
  })
  .openapi("RoomRangeCreate");

export const roomRangeSchema = z
  .object({
    object: z.literal("room_range"),
    livemode: z.boolean(),
    room_type_id: idOf("rt"),
    data: z.array(roomSchema),
  })
  .openapi("RoomRange");

export const roomUpdateSchema = z
  .strictObject({
    room_type_id: z.string().min(1).optional(),
    number: z.string().trim().min(1).max(20).optional(),
    floor: z.number().int().min(-5).max(200).nullish(),
  })
  .openapi("RoomUpdate");

export const roomListQuery = z.strictObject({
  property_id: z.string().optional(),
  room_type_id: z.string().optional(),
  housekeeping_status: z.enum(housekeepingStatuses).optional(),
  retired: z.enum(["true", "false"]).optional().openapi({ description: "`true`: only retired rooms; absent or `false`: only rooms in service." }),
});

export const roomTypeListQuery = z.strictObject({ property_id: z.string().optional() });

export { date };
export type RoomTypeCreate = z.output<typeof roomTypeCreateSchema>;
export type RoomTypeUpdate = z.output<typeof roomTypeUpdateSchema>;
export type RoomCreate = z.output<typeof roomCreateSchema>;
export type RoomUpdate = z.output<typeof roomUpdateSchema>;
export type RoomRangeCreate = z.output<typeof roomRangeCreateSchema>;
