import { z } from "@hono/zod-openapi";
import { taxKinds, taxTargets } from "@/db/schema";
import { idOf, timestamp } from "@/server/schemas";

const kindText =
  "`percentage`: a rate on the price of each line it applies to (VAT, sales tax), inside the price (`inclusive`) or added to it; `per_night`: an amount per room night; `per_person_per_night`: an amount per guest (adults and children) and room night (city tax). The two per-night kinds post their own folio line (kind `tax`) beside each room night.";

export const taxSchema = z
  .object({
    id: idOf("tax"),
    object: z.literal("tax"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    name: z.string().openapi({ example: "VAT" }),
    kind: z.enum(taxKinds).openapi({ description: kindText }),
    percentage: z.number().nullable().openapi({ description: "The rate in percent (up to three decimals), for `percentage` taxes; null for the per-night kinds.", example: 10 }),
    amount: z
      .object({ amount: z.number().int().openapi({ example: 250 }), currency: z.string().length(3).openapi({ example: "USD" }) })
      .nullable()
      .openapi({ description: "The amount per night (or per person and night), in minor units, for the per-night kinds; null for `percentage`." }),
    inclusive: z.boolean().openapi({ description: "A percentage inside the price (true: the price stays, its net is less) or added to it (false). Always false for the per-night kinds." }),
    applies_to: z.enum(taxTargets).openapi({ description: "`room_nights` or `other_charges` (extras and the rate plans' fees). The per-night kinds apply to room nights only." }),
    active: z.boolean().openapi({ description: "Applied to lines posted from now on. An inactive tax stays on the lines already posted." }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("Tax");

const name = z.string().trim().min(1).max(100).openapi({ example: "VAT" });
const percentage = z
  .number()
  .gt(0)
  .max(100)
  .refine((p) => Number.isInteger(Math.round(p * 1000 * 1e6) / 1e6), "At most three decimals.")
  .openapi({ description: "Percent, more than 0 and at most 100, up to three decimals (7.5 for 7.5 %).", example: 10 });
const amount = z.number().int().min(1).max(100_000_000).openapi({ description: "Minor units of the property's currency.", example: 250 });

export const taxCreateSchema = z
  .strictObject({
    property_id: z.string().min(1),
    name,
    kind: z.enum(taxKinds).openapi({ description: kindText }),
    percentage: percentage.optional().openapi({ description: "Required for `percentage`; not allowed for the per-night kinds." }),
    amount: amount.optional().openapi({ description: "Required for the per-night kinds (minor units); not allowed for `percentage`." }),
    inclusive: z.boolean().optional().openapi({ description: "For `percentage`: inside the price (true) or added to it (false, the default)." }),
    applies_to: z.enum(taxTargets).optional().openapi({ description: "Default `room_nights`." }),
  })
  .openapi("TaxCreate");

export const taxUpdateSchema = z
  .strictObject({
    name: name.optional(),
    percentage: percentage.optional(),
    amount: amount.optional(),
    inclusive: z.boolean().optional(),
    applies_to: z.enum(taxTargets).optional(),
    active: z.boolean().optional(),
  })
  .openapi("TaxUpdate", { description: "The fields to change; the kind cannot change. Lines already posted keep the taxes they were posted with." });

export const taxListQuery = z.strictObject({ property_id: z.string().min(1).max(64).optional() });

export type TaxCreate = z.output<typeof taxCreateSchema>;
export type TaxUpdate = z.output<typeof taxUpdateSchema>;
