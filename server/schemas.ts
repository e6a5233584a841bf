import { z } from "@hono/zod-openapi";

/** Shapes shared by every resource's schema. */
export const timestamp = z.string().openapi({ format: "date-time", example: "2026-11-21T09:30:00.000Z" });
export const idOf = (prefix: string) => z.string().openapi({ example: `${prefix}_1a2B3c4D5e6F7g8H9i0J1k2L` });
export const idParam = (prefix: string) =>
  z.strictObject({ id: z.string().min(1).max(64).openapi({ param: { name: "id", in: "path" }, example: `${prefix}_1a2B3c4D5e6F7g8H9i0J1k2L` }) });
export const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Expected a date as YYYY-MM-DD.")
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "Not a calendar date.")
  .openapi({ format: "date", example: "2026-12-24" });
export const money = z
  .object({
    amount: z.number().int().openapi({ description: "Minor units: 12900 USD is $129.00." }),
    currency: z.string().length(3).openapi({ example: "USD" }),
  })
  .openapi("Money");
export const deleted = (object: string) => z.object({ id: z.string(), object: z.literal(object), deleted: z.literal(true) });

/**
 * An integer query parameter, parsed strictly: digits only (an empty value or `1.5` is not 0 or 1),
 * then bounded, each fault in plain words. Documented as an integer with its bounds.
 */
export const queryInteger = ({ min, max }: { min: number; max: number }) =>
  z
    .string()
    .regex(/^-?\d+$/, "must be an integer")
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .openapi({ type: "integer", minimum: min, maximum: max });

/**
 * A date-time query parameter: RFC 3339 with `Z` or any offset (`+01:00`), read as the instant it
 * names and handed on in UTC (`…Z`), so a hotel's local clock time and its UTC form filter alike.
 */
export const queryTimestamp = (description: string) =>
  z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value).toISOString())
    .openapi({ type: "string", format: "date-time", description: `${description} RFC 3339, with \`Z\` or an offset such as \`+01:00\`.`, example: "2026-01-01T09:30:00+01:00" });

/**
 * An e-mail address as the server accepts it: zod's rule, stricter than JSON Schema's `email`
 * format (a dotted domain with a TLD of 2+ letters: `0@com` is refused), so the document states it,
 * within RFC 5321's lengths: 254 characters in all (a 256-octet path less its angle brackets), a
 * local part of at most 64, each domain label at most 63.
 */
export const emailAddress = z
  .email()
  .max(254)
  .refine((value) => value.slice(0, value.lastIndexOf("@")).length <= 64, { message: "The part before the @ may be at most 64 characters (RFC 5321)." })
  .refine((value) => value.slice(value.lastIndexOf("@") + 1).split(".").every((label) => label.length <= 63), {
    message: "Each dot-separated part of the domain may be at most 63 characters (RFC 5321).",
  })
  .openapi({
    pattern: z.regexes.email.source,
    description:
      "An e-mail address whose domain has a dot and a top-level domain of 2+ letters (`ana@example.com`; not `ana@localhost`), " +
      "at most 254 characters, with at most 64 before the `@` and at most 63 in each part of the domain (RFC 5321).",
  });

/** The body of an action that takes no options (`POST …/cancel` and the like): an empty object. */
export const emptyActionSchema = z.strictObject({}).openapi("EmptyAction");
