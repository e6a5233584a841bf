import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { defineOperation } from "@/server/http/operation";
import type { ApiEnv } from "@/server/http/context";
import { date, idOf } from "@/server/schemas";
import { reportColumns, reportCsv } from "./csv";
import { occupancyReport, productionReport, revenueReport } from "./reports";

const query = z.strictObject({
  property_id: z.string().min(1),
  from: date,
  to: date.openapi({ description: "Exclusive." }),
  group_by: z.enum(["source", "channel", "rate_plan", "room_type"]).optional().openapi({ description: "Production report only; default `source`." }),
  format: z.enum(["json", "csv"]).default("json"),
});

const header = {
  object: z.literal("report"),
  livemode: z.boolean(),
  property_id: idOf("prop"),
  currency: z.string(),
  from: date,
  to: date,
};
const occupancyRow = z.object({ date, rooms_available: z.number().int(), rooms_sold: z.number().int(), occupancy: z.number().openapi({ description: "0–1" }) });
const roomRevenue = z.number().int().openapi({ description: "The sold nights' rates as loaded (inside or before taxes, as the property's taxes say), minor units." });
const charged = {
  net: z.number().int().openapi({ description: "What the folios charge for those room nights without taxes: the sum of their room-night and per-night-tax lines' net, minor units." }),
  tax: z.number().int().openapi({ description: "The taxes in those lines (percentages and per-night fees such as city tax), minor units." }),
  gross: z.number().int().openapi({ description: "What the guests are charged for those nights: net + tax, minor units." }),
};
const revenueRow = z.object({
  date,
  room_revenue: roomRevenue,
  ...charged,
  adr: z.number().int(),
  revpar: z.number().int(),
  payments: z.number().int(),
  refunds: z.number().int(),
  credited_net: z.number().int().openapi({ description: "What the credit notes issued on this business date take off, without taxes: negative, minor units (their lines are posted on the day they are issued, not on the nights they correct)." }),
  credited_tax: z.number().int().openapi({ description: "The taxes those credit notes reverse: negative, minor units." }),
  credited_gross: z.number().int().openapi({ description: "What those credit notes take off in all: credited_net + credited_tax, minor units." }),
});
const productionRow = z.object({
  group: z.string().nullable(),
  group_name: z.string().nullable().optional(),
  reservations: z.number().int(),
  room_nights: z.number().int(),
  room_revenue: roomRevenue,
  ...charged,
  cancellations: z.number().int(),
});

/** CSV answers carry the report's rows only; totals are the JSON form's. */
function respond(c: Context<ApiEnv>, format: "json" | "csv", report: Parameters<typeof reportCsv>[0]) {
  if (format === "json") return report;
  const csv = reportCsv(report);
  return c.body(csv.body, 200, { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${csv.filename}"` });
}

/** The document describes exactly the columns the CSV builder writes. */
const columnList = (names: string[]) => names.map((n) => `\`${n}\``).join(", ");
const csv = {
  occupancy: `CSV columns: ${columnList(reportColumns({ type: "occupancy" }))}; one row per night, \`occupancy\` a decimal 0–1.`,
  revenue: `CSV columns: ${columnList(reportColumns({ type: "revenue" }))}; one row per night, amounts in minor units of the property's currency.`,
  production: `CSV columns: ${columnList(reportColumns({ type: "production", group_by: "room_type" }))}; one row per group, \`group_name\` only when \`group_by\` is \`rate_plan\` or \`room_type\`, amounts in minor units.`,
};

const tag = "Reports";
const description = "Requires scope `reports:read`. `format=csv` answers `text/csv` as an attachment.";

export const reportOperations = [
  // GET /v1/reports/occupancy: rooms available and sold per night, occupancy 0–1
  defineOperation({
    method: "get", path: "/reports/occupancy", operationId: "occupancyReport", summary: "Occupancy report", tag, scope: "reports:read", description, query, csv: csv.occupancy,
    response: z.object({ ...header, type: z.literal("occupancy"), data: z.array(occupancyRow), totals: occupancyRow.omit({ date: true }) }).openapi("OccupancyReport"),
    handler: async ({ ctx, query, c }) => respond(c, query.format, await occupancyReport({ ...ctx, query })),
  }),
  // GET /v1/reports/revenue: room revenue, ADR, RevPAR, payments and refunds per night
  defineOperation({
    method: "get", path: "/reports/revenue", operationId: "revenueReport", summary: "Revenue report", tag, scope: "reports:read", description, query, csv: csv.revenue,
    response: z.object({ ...header, type: z.literal("revenue"), data: z.array(revenueRow), totals: revenueRow.omit({ date: true }) }).openapi("RevenueReport"),
    handler: async ({ ctx, query, c }) => respond(c, query.format, await revenueReport({ ...ctx, query })),
  }),
  // GET /v1/reports/production: arrivals grouped by source, channel, rate plan or room type
  defineOperation({
    method: "get", path: "/reports/production", operationId: "productionReport", summary: "Production report", tag, scope: "reports:read", description, query, csv: csv.production,
    response: z
      .object({ ...header, type: z.literal("production"), group_by: z.string(), data: z.array(productionRow), totals: productionRow.omit({ group: true, group_name: true }) })
      .openapi("ProductionReport"),
    handler: async ({ ctx, query, c }) =>
      respond(c, query.format, await productionReport({ ...ctx, query })),
  }),
];
