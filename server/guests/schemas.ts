import { z } from "@hono/zod-openapi";
import { addressInputSchema, addressSchema } from "@/server/properties/schemas";
import { emailAddress, idOf, timestamp } from "@/server/schemas";
import { searchTerm } from "./search";

const name = z.string().trim().min(1).max(200);
const email = emailAddress;
const phone = z.string().trim().min(3).max(40).regex(/^[+0-9 ()./-]+$/, "Expected a phone number.").openapi({ example: "+1 212 555 0100" });

const guestAddress = addressInputSchema.nullish().openapi({
  description: "Postal address for invoices: every line optional, empty lines dropped; sent, it replaces the whole address, and null removes it.",
});

export const guestSchema = z
  .object({
    id: idOf("gst"),
    object: z.literal("guest"),
    livemode: z.boolean(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string().nullable().openapi({ description: "null only for a walk-in booked without one, where the property allows it." }),
    phone: z.string().nullable(),
    address: addressSchema.nullable().openapi({ description: "The guest's postal address for invoices, every line optional; null when none was given." }),
    erased_at: timestamp.nullable().openapi({ description: "When the guest was erased on request (`POST /guests/{id}/erase`): names anonymised, no contact. null for every other guest." }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("Guest");

export const guestCreateSchema = z
  .strictObject({ first_name: name, last_name: name, email, phone: phone.nullish(), address: guestAddress })
  .openapi("GuestCreate");

export const guestUpdateSchema = z
  .strictObject({ first_name: name.optional(), last_name: name.optional(), email: email.optional(), phone: phone.nullish(), address: guestAddress })
  .openapi("GuestUpdate");

/** Erasure cannot be undone, so it is asked for in so many words: a blank body erases nobody. */
export const guestEraseSchema = z
  .strictObject({ confirm: z.literal(true).openapi({ description: "Must be true: erasure cannot be undone." }) })
  .openapi("GuestErase");

export const guestListQuery = z.strictObject({
  email: z.string().max(320).optional().openapi({ description: "Exact e-mail, case-insensitive." }),
  search: searchTerm.optional(),
});

const roomPreferences = {
  bed: z.string().trim().min(1).max(50),
  floor: z.enum(["high", "low"]),
  smoking: z.boolean(),
  quiet: z.boolean(),
  accessible: z.boolean(),
  notes: z.string().max(1000),
};
const loyalty = {
  program: z.string().trim().min(1).max(100),
  tier: z.string().trim().min(1).max(50),
  number: z.string().trim().min(1).max(100),
  points: z.number().int().min(0),
};
const allergies = z.array(z.string().trim().min(1).max(100)).max(50);

const optionalAll = <T extends Record<string, z.ZodType>>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as { [K in keyof T]: z.ZodOptional<T[K]> };
/** In a merge, null removes a key. */
const nullableAll = <T extends Record<string, z.ZodType>>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.nullish()])) as { [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>> };

export const preferencesSchema = z
  .object({
    object: z.literal("guest_preferences"),
    guest_id: idOf("gst"),
    livemode: z.boolean(),
    allergies: z.array(z.string()),
    room: z.object(optionalAll(roomPreferences)),
    loyalty: z.object(optionalAll(loyalty)),
    updated_at: timestamp.nullable().openapi({ description: "null until preferences are first set." }),
  })
  .openapi("GuestPreferences");

export const preferencesReplaceSchema = z
  .strictObject({
    allergies: allergies.default([]),
    room: z.strictObject(optionalAll(roomPreferences)).default({}),
    loyalty: z.strictObject(optionalAll(loyalty)).default({}),
  })
  .openapi("GuestPreferencesReplace");

export const preferencesMergeSchema = z
  .strictObject({
    allergies: allergies.optional(),
    room: z.strictObject(nullableAll(roomPreferences)).optional(),
    loyalty: z.strictObject(nullableAll(loyalty)).optional(),
  })
  .openapi("GuestPreferencesMerge");

export type GuestCreate = z.output<typeof guestCreateSchema>;
/** A guest as a booking names them: a walk-in may come without an e-mail where the property allows it. */
export type BookingGuest = Omit<GuestCreate, "email"> & { email?: string | null };
export type GuestUpdate = z.output<typeof guestUpdateSchema>;
export type PreferencesReplace = z.output<typeof preferencesReplaceSchema>;
export type PreferencesMerge = z.output<typeof preferencesMergeSchema>;
