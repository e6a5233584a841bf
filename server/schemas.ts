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
