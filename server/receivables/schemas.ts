import { z } from "@hono/zod-openapi";
import { date, idOf, money } from "@/server/schemas";

/** What an open balance is: money owed to a guest, or owed by one after the stay ended (and how it ended). */
export const receivableKinds = ["credit_balance", "due_after_departure", "no_show", "cancellation"] as const;
export type ReceivableKind = (typeof receivableKinds)[number];

/** Ageing buckets, in days since the balance became due, counted on the property's business date. */
export const ageingBuckets = ["days_0_30", "days_31_60", "days_61_90", "days_over_90"] as const;
export type AgeingBucket = (typeof ageingBuckets)[number];

const usd = (amount: number) => ({ amount, currency: "USD" });

export const receivableSchema = z
  .object({
    object: z.literal("receivable"),
    livemode: z.boolean(),
    folio_id: idOf("fol"),
    property_id: idOf("prop"),
    kind: z.enum(receivableKinds).openapi({
      description:
        "`credit_balance`: the hotel owes the guest (`amount` negative), e.g. a prepaid no-show on a refundable plan. Otherwise the guest owes it (`amount` positive): `due_after_departure` (a checked-out stay), `no_show` (the no-show fee), `cancellation` (the cancellation charge).",
    }),
    amount: money.openapi({ description: "The folio's balance now: positive when the guest owes it, negative when the hotel owes it to the guest." }),
    guest: z.object({ id: idOf("gst"), name: z.string() }).openapi({ description: "The guest of the stay (for a group's master folio, its first room's guest)." }),
    group: z
      .object({ id: idOf("grp"), name: z.string() })
      .nullable()
      .openapi({ description: "The group whose master folio this is (the company or party billed for its rooms); null for a guest's own folio." }),
    stay: z.object({
      reservation_id: idOf("res"),
      status: z.enum(["checked_out", "no_show", "cancelled"]),
      check_in: date,
      check_out: date,
    }),
    invoice_id: idOf("inv").nullable().openapi({ description: "The invoice the folio closed into; null when none was issued (a credit balance with no charge)." }),
    due_date: date.openapi({ description: "The property's business date the balance became due: its invoice's issue date (its latest supplementary invoice's, after a late charge), else the day the stay ended." }),
    age_days: z.number().int().openapi({ description: "Days from `due_date` to the property's business date today.", example: 12 }),
    bucket: z.enum(ageingBuckets).openapi({ description: "`age_days` as an ageing bucket: 0–30, 31–60, 61–90 or over 90 days." }),
  })
  .openapi("Receivable", {
    description:
      "An open balance of a stay that has ended: its folio's balance is not zero and no stay still running bills to it. Gone from the list once the balance is settled (a payment of what is due, a refund of a credit).",
    example: {
      object: "receivable",
      livemode: false,
      folio_id: "fol_1a2B3c4D5e6F7g8H9i0J1k2L",
      property_id: "prop_1a2B3c4D5e6F7g8H9i0J1k2L",
      kind: "credit_balance",
      amount: usd(-22700),
      guest: { id: "gst_1a2B3c4D5e6F7g8H9i0J1k2L", name: "Ana Lima" },
      group: null,
      stay: { reservation_id: "res_1a2B3c4D5e6F7g8H9i0J1k2L", status: "no_show", check_in: "2026-11-02", check_out: "2026-11-04" },
      invoice_id: null,
      due_date: "2026-11-02",
      age_days: 26,
      bucket: "days_0_30",
    },
  });

const bucketTotal = z.object({
  bucket: z.enum(ageingBuckets),
  due: money.openapi({ description: "What guests owe in this bucket (positive)." }),
  credit: money.openapi({ description: "What the hotel owes guests in this bucket (negative or zero)." }),
  count: z.number().int(),
});

export const receivableTotalsSchema = z
  .array(
    z.object({
      currency: z.string().length(3),
      buckets: z.array(bucketTotal).openapi({ description: "Every bucket, in order, zero ones too." }),
      due: money,
      credit: money,
      count: z.number().int(),
    }),
  )
  .openapi("ReceivableTotals", {
    description: "Per currency, the sums of every open balance the filters select (all pages, not only this one), per ageing bucket.",
    example: [
      {
        currency: "USD",
        buckets: [
          { bucket: "days_0_30", due: usd(45000), credit: usd(-22700), count: 3 },
          { bucket: "days_31_60", due: usd(12000), credit: usd(0), count: 1 },
          { bucket: "days_61_90", due: usd(0), credit: usd(0), count: 0 },
          { bucket: "days_over_90", due: usd(0), credit: usd(0), count: 0 },
        ],
        due: usd(57000),
        credit: usd(-22700),
        count: 4,
      },
    ],
  });

export const receivableListSchema = z
  .object({
    object: z.literal("list"),
    data: z.array(receivableSchema),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
    prev_cursor: z.string().nullable(),
    totals: receivableTotalsSchema,
  })
  .openapi("ReceivableList", { description: "Open balances, oldest due first (then by guest's name and folio), with the totals of every page." });

const id = z.string().min(1).max(64);

export const receivableListQuery = z.strictObject({
  property_id: id.optional(),
  guest_id: id.optional().openapi({ description: "Only this guest's balances." }),
  group_id: id.optional().openapi({ description: "Only this group's master folio." }),
  kind: z.enum(receivableKinds).optional(),
  bucket: z.enum(ageingBuckets).optional(),
});
export type ReceivableFilters = z.output<typeof receivableListQuery>;
