import { z } from "@hono/zod-openapi";
import { date, idOf, timestamp } from "@/server/schemas";

const amountAndCount = z.object({ amount: z.number().int(), count: z.number().int() });

export const flashReportSchema = z
  .object({
    business_date: date,
    currency: z.string(),
    rooms_available: z.number().int(),
    rooms_sold: z.number().int(),
    occupancy: z.number().openapi({ description: "0–1" }),
    room_revenue: z.number().int(),
    adr: z.number().int(),
    revpar: z.number().int(),
    revenue_by_kind: z
      .object({
        room_night: z.number().int(),
        extra: z.number().int(),
        early_departure_fee: z.number().int(),
        no_show_fee: z.number().int(),
        late_check_out_fee: z.number().int(),
        tax: z.number().int().optional().openapi({ description: "Per-night taxes (city tax) of that night; absent in reports written before taxes existed." }),
      })
      .openapi({ description: "What the folios charged for the day (gross, taxes included): room nights and their per-night taxes of that night, fees of that date, extras added that day." }),
    charged: z
      .object({ net: z.number().int(), tax: z.number().int(), gross: z.number().int() })
      .optional()
      .openapi({ description: "The same lines together: net, the taxes in them, and gross (the sum of `revenue_by_kind`). Absent in reports written before taxes existed." }),
    other: z
      .object({ net: z.number().int(), tax: z.number().int(), gross: z.number().int() })
      .optional()
      .openapi({
        description:
          "Other revenue of the day, as the revenue report's `other_net`, `other_tax` and `other_gross` count it: every line of `charged` but the room nights and per-night taxes of the nights sold (extras, fees, the retained charges of cancelled and no-show stays). `charged` less `other` is the room revenue's charges (the revenue report's `net`, `tax`, `gross`). Absent in reports written before 2026-11-28.",
      }),
    payments_by_method: z
      .object({ card: amountAndCount.optional(), cash: amountAndCount.optional(), bank_transfer: amountAndCount.optional() })
      .openapi({ description: "Payments captured that local day, by method; a method with none is absent." }),
    payments: z.number().int(),
    refunds: z.number().int(),
    taxes: z
      .object({
        total: z.number().int(),
        by_tax: z.array(z.object({ tax_id: idOf("tax"), name: z.string(), amount: z.number().int() })),
      })
      .nullable()
      .openapi({ description: "The taxes in the day's lines (`charged.tax`), and each tax's share; null in reports written before taxes existed." }),
  })
  .openapi("FlashReport");

export const nightAuditSchema = z
  .object({
    id: idOf("na"),
    object: z.literal("night_audit"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    business_date: date.openapi({ description: "The business day the audit closed; the property's business date is then the next day." }),
    trigger: z.enum(["scheduled", "manual", "advance_day"]),
    no_shows: z.array(idOf("res")).openapi({
      description: "Reservations the audit marked as no-shows (fees posted). A guest turned away at check-in for want of a ready room is not one: the audit cancels that stay with no charge.",
    }),
    departures_in_house: z.array(idOf("res")).openapi({
      description:
        "Stays still checked in on or after their departure date, flagged for the desk. With the property's `overstay_at_audit` at `extend`, each was extended by the night closed, sold and posted on it.",
    }),
    flash: flashReportSchema,
    created_at: timestamp,
  })
  .openapi("NightAudit");
