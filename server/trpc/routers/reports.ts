import { z } from "zod";
import { getProperty } from "@/server/properties/properties";
import { staffReportCsv } from "@/server/reports/csv";
import { labelProduction, occupancyReport, productionReport, revenueReport } from "@/server/reports/reports";
import { listNightAudits } from "@/server/night-audit/list";
import { planNightAuditByHand, runNightAuditByHand } from "@/server/night-audit/run-by-hand";
import { date } from "@/server/schemas";
import { access } from "@/lib/access";
import { roles, router, staffProcedure } from "../init";

// The same services as /v1/reports/*: tRPC adds transport, not rules.
const reportsProcedure = staffProcedure.use(roles(...access.reports));
const nightAuditProcedure = staffProcedure.use(roles(...access.nightAudit));
const range = { property_id: z.string().min(1).max(64), from: date, to: date };
const plain = z.strictObject(range);
const grouped = z.strictObject({ ...range, group_by: z.enum(["source", "channel", "rate_plan", "room_type"]).optional() });
export const reportTypes = ["occupancy", "revenue", "production"] as const;

export const reportsRouter = router({
  occupancy: reportsProcedure.input(plain).query(({ ctx, input }) => occupancyReport({ db: ctx.db, tenant: ctx.tenant, query: input })),
  revenue: reportsProcedure.input(plain).query(({ ctx, input }) => revenueReport({ db: ctx.db, tenant: ctx.tenant, query: input })),
  /** The production report with each group in words (`group_label`) beside its code. */
  production: reportsProcedure
    .input(grouped)
    .query(async ({ ctx, input }) => labelProduction(ctx, await productionReport({ db: ctx.db, tenant: ctx.tenant, query: input }))),
  /** The night audits of the property, newest first, each with its day's flash report (the /v1/night_audits objects). */
  nightAudits: reportsProcedure
    .input(z.strictObject({ property_id: z.string().min(1).max(64), limit: z.number().int().min(1).max(100).default(30) }))
    .query(({ ctx, input }) => listNightAudits({ db: ctx.db, tenant: ctx.tenant, propertyId: input.property_id, limit: input.limit })),
  /** What running the night audit by hand now would do (or why it cannot run yet), for its confirmation. */
  nightAuditPlan: nightAuditProcedure
    .input(z.strictObject({ property_id: z.string().min(1).max(64) }))
    .query(({ ctx, input }) => planNightAuditByHand({ db: ctx.db, tenant: ctx.tenant, propertyId: input.property_id })),
  /** Runs the night audit by hand for the business date confirmed; a date already closed changes nothing. */
  runNightAudit: nightAuditProcedure
    .input(z.strictObject({ property_id: z.string().min(1).max(64), business_date: date }))
    .mutation(({ ctx, input }) =>
      runNightAuditByHand({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, propertyId: input.property_id, businessDate: input.business_date }),
    ),
  /** A report as the dashboard's CSV download: the rows on screen, for a spreadsheet (server/reports/csv.ts `staffReportCsv`). */
  csv: reportsProcedure.input(grouped.extend({ type: z.enum(reportTypes) })).query(async ({ ctx, input: { type, ...query } }) => {
    const scope = { db: ctx.db, tenant: ctx.tenant, query };
    const report =
      type === "occupancy"
        ? await occupancyReport(scope)
        : type === "revenue"
          ? await revenueReport(scope)
          : await labelProduction(ctx, await productionReport(scope));
    const property = await getProperty({ db: ctx.db, tenant: ctx.tenant, id: query.property_id });
    return staffReportCsv(report, property.name);
  }),
});
