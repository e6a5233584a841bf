import { z } from "@hono/zod-openapi";
import { overstayAtAuditChoices, type Address } from "@/db/schema";
import { date, idOf, timestamp } from "@/server/schemas";

const addressLine = (max: number) => z.string().trim().max(max);

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

/** An address as sent: every line optional, trimmed; an empty line is dropped. */
export const addressInputSchema = z
  .strictObject({
    line1: addressLine(200).optional().openapi({ example: "Rua das Flores 12" }),
    line2: addressLine(200).optional(),
    city: addressLine(100).optional().openapi({ example: "Lisboa" }),
    region: addressLine(100).optional(),
    postal_code: addressLine(20).optional().openapi({ example: "1200-195" }),
    country: z
      .string()
      .trim()
      .regex(/^([A-Za-z]{2})?$/, "Expected a two-letter country code (ISO 3166-1), such as US.")
      .transform((c) => c.toUpperCase())
      .optional()
      .openapi({ example: "PT" }),
  })
  .openapi("AddressInput");

/** An address as stored: lines left empty are dropped. */
export const cleanAddress = (address: z.output<typeof addressInputSchema> | null | undefined): Address =>
  Object.fromEntries(Object.entries(address ?? {}).filter(([, v]) => typeof v === "string" && v !== "")) as Address;

/** Every IANA zone this runtime knows, and UTC (which `supportedValuesOf` leaves out). */
const timeZones = new Set([...Intl.supportedValuesOf("timeZone"), "UTC", "Etc/UTC"]);
const currencies = new Set(Intl.supportedValuesOf("currency"));

const timezoneInput = z
  .string()
  .refine((zone) => timeZones.has(zone), "Expected an IANA time zone, such as Europe/Lisbon.")
  .openapi({ description: "IANA time zone; the property's local date decides \"today\".", example: "Europe/Lisbon" });
const currencyInput = z
  .string()
  .transform((c) => c.toUpperCase())
  .refine((c) => currencies.has(c), "Expected an ISO 4217 currency code, such as EUR.")
  .openapi({ description: "ISO 4217 currency code; every amount of the property is in its minor units.", example: "EUR" });
/** A local clock time, 24-hour "HH:MM". */
export const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Expected a 24-hour time as HH:MM, such as 15:00.")
  .openapi({ example: "15:00" });

export const propertySchema = z
  .object({
    id: idOf("prop"),
    object: z.literal("property"),
    livemode: z.boolean(),
    name: z.string(),
    timezone: z.string().openapi({ description: "IANA time zone; the property's local date decides \"today\".", example: "America/New_York" }),
    currency: z.string().openapi({ example: "USD" }),
    address: addressSchema,
    check_in_time: z.string().openapi({ description: "Local time from which guests may check in, HH:MM.", example: "15:00" }),
    check_out_time: z.string().openapi({ description: "Local time by which guests check out, HH:MM.", example: "11:00" }),
    room_count: z.number().int().openapi({ description: "Rooms in service (retired rooms are not counted)." }),
    walk_ins_without_email: z.boolean().openapi({
      description: "Whether a reservation with source `walk_in` may omit `guest.email`. Default false: every booking needs an e-mail.",
    }),
    guest_emails: z.boolean().openapi({
      description: "Whether guests with an e-mail get a confirmation, a modification and a cancellation e-mail (sandbox mail is kept, never sent). Default true.",
    }),
    audit_hour: z.number().int().openapi({ description: "Hour (0–23, property time) at which the night audit closes a business day: the next morning for an hour before noon, the same evening from noon on." }),
    overstay_at_audit: z.enum(overstayAtAuditChoices).openapi({
      description:
        "What the night audit does with a guest still in house past the departure date: `extend` (the default) sells them that night and posts it, with its taxes, on the day it closes; `refuse` leaves the day open and names them, until the desk checks them out or extends the stay.",
    }),
    business_date: date.openapi({
      description:
        "The property's \"today\", the open business date: the date the last night audit (or the sandbox's advance_day) opened, until the next audit closes it (between midnight and the audit hour it is still the day before); the local date for a property never audited. Every posting, payment, refund and desk rule belongs to it.",
    }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("Property");

const auditHourInput = z
  .number()
  .int()
  .min(0)
  .max(23)
  .openapi({ description: "Hour (0–23, property time) of the night audit: before noon it closes the previous day the next morning, from noon on the same evening.", example: 3 });
const overstayInput = z.enum(overstayAtAuditChoices).openapi({ description: "What the night audit does with a guest still in house past departure: `extend` (sell and post the night) or `refuse` (the day stays open, the guests named)." });
const walkInsInput = z.boolean().openapi({ description: "Whether a walk-in (`source: walk_in`) may be booked without the guest's e-mail." });

export const propertyCreateSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    timezone: timezoneInput,
    currency: currencyInput,
    address: addressInputSchema.optional(),
    check_in_time: clockTime.default("15:00"),
    check_out_time: clockTime.default("11:00"),
    guest_emails: z.boolean().default(true).openapi({ description: "Whether guests get e-mails about their bookings (confirmation, change, cancellation)." }),
    audit_hour: auditHourInput.default(3),
    walk_ins_without_email: walkInsInput.default(false),
    overstay_at_audit: overstayInput.default("extend"),
  })
  .openapi("PropertyCreate");

export const propertyUpdateSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    timezone: timezoneInput.optional(),
    currency: currencyInput.optional().openapi({ description: "Changeable only while the property has no daily rate and no reservation." }),
    address: addressInputSchema.optional().openapi({ description: "Replaces the whole address." }),
    check_in_time: clockTime.optional(),
    check_out_time: clockTime.optional(),
    guest_emails: z.boolean().optional().openapi({ description: "false: guests get no e-mail from the hotel about their bookings." }),
    audit_hour: auditHourInput.optional(),
    walk_ins_without_email: walkInsInput.optional(),
    overstay_at_audit: overstayInput.optional(),
  })
  .openapi("PropertyUpdate");

export type PropertyCreate = z.output<typeof propertyCreateSchema>;
export type PropertyUpdate = z.output<typeof propertyUpdateSchema>;
