import { z } from "@hono/zod-openapi";
import { date, idOf, timestamp } from "@/server/schemas";

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
    audit_hour: z.number().int().openapi({ description: "Hour (0–23, property time) at which the night audit closes a business day: the next morning for an hour before noon, the same evening from noon on." }),
    business_date: date.openapi({ description: "The property's \"today\": its local date, or the business date the night audit (or the sandbox's advance_day) moved ahead of it." }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("Property");
