import { z } from "@hono/zod-openapi";
import { idOf, timestamp } from "@/server/schemas";

export const addressSchema = z
  .object({
    line1: z.string().optional(),
    line2: z.string().optional(),
    city: z.string().optional(),
    region: z.string().optional(),
    postal_code: z.string().optional(),
    country: z.string().optional(),
  })
  .openapi("Address");

export const propertySchema = z
  .object({
    id: idOf("prop"),
    object: z.literal("property"),
    livemode: z.boolean(),
    name: z.string(),
    timezone: z.string().openapi({ description: "IANA time zone; the property's local date decides \"today\".", example: "America/New_York" }),
    currency: z.string().openapi({ example: "USD" }),
    address: addressSchema,
    room_count: z.number().int(),
    walk_ins_without_email: z.boolean().openapi({
      description: "Whether a reservation with source `walk_in` may omit `guest.email`. Default false: every booking needs an e-mail.",
    }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("Property");
