import { z } from "zod";
import { reportCsv } from "@/server/reports/csv";
import { listNightAudits } from "@/server/night-audit/list";
import { occupancyReport, productionReport, revenueReport } from "@/server/reports/reports";
import { date } from "@/server/schemas";
import { access } from "@/server/staff/access";
import { roles, router, staffProcedure } from "../init";

// The same services as /v1/reports/*: tRPC adds transport, not rules.
const reportsProcedure = staffProcedure.use(roles(...access.reports));
const range = { property_id: z.string().min(1).max(64), from: date, to: date };
const plain = z.strictObject(range);
const grouped = z.strictObject({ ...range, group_by: z.enum(["source", "channel", "rate_plan", "room_type"]).optional() });
export const reportTypes = ["occupancy", "revenue", "production"] as const;

export const reportsRouter = router({
  occupancy: reportsProcedure.input(plain).query(({ ctx, input }) => occupancyReport({ db: ctx.db, tenant: ctx.tenant, query: input })),
  revenue: reportsProcedure.input(plain).query(({ ctx, input }) => revenueReport({ db: ctx.db, tenant: ctx.tenant, query: input })),
  production: reportsProcedure.input(grouped).query(({ ctx, input }) => productionReport({ db: ctx.db, tenant: ctx.tenant, query: input })),
  /** The night audits of the property, newest first, each with its day's flash report (the /v1/night_audits objects). */
  nightAudits: reportsProcedure
    .input(z.strictObject({ property_id: z.string().min(1).max(64), limit: z.number().int().min(1).max(100).default(30) }))
    .query(({ ctx, input }) => listNightAudits({ db: ctx.db, tenant: ctx.tenant, propertyId: input.property_id, limit: input.limit })),
  /** A report as CSV, exactly the rows `/v1/reports/*?format=csv` answers (the dashboard's download). */
  csv: reportsProcedure.input(grouped.extend({ type: z.enum(reportTypes) })).query(async ({ ctx, input: { type, ...query } }) => {
    const scope = { db: ctx.db, tenant: ctx.tenant, query };
    const report = type === "occupancy" ? await occupancyReport(scope) : type === "revenue" ? await revenueReport(scope) : await productionReport(scope);
    return reportCsv(report);
  }),
});
