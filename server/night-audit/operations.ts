import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { nightAudits } from "@/db/schema";
import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { idParam } from "@/server/schemas";
import { findOwned, listOwned } from "@/server/tenancy";
import { presentNightAudit } from "./present";
import { nightAuditSchema } from "./schemas";

const tag = "Night audit";
const description =
  "Requires scope `reports:read`. The night audit closes each business day of a property at its audit hour (03:00 by default): no-shows with their fees, departures still in house, the day's flash report.";

export const nightAuditOperations = [
  // GET /v1/night_audits: the audits run, newest first, with their flash reports
  defineOperation({
    method: "get", path: "/night_audits", operationId: "listNightAudits", summary: "List night audits", tag, scope: "reports:read", description,
    query: z.strictObject({ property_id: z.string().optional() }),
    list: true, response: listSchema(nightAuditSchema, "NightAuditList"),
    handler: async ({ ctx, query, list }) =>
      list.envelope(await listOwned(ctx.db, nightAudits, ctx.tenant, list.page, query.property_id ? eq(nightAudits.propertyId, query.property_id) : undefined), presentNightAudit),
  }),
  // GET /v1/night_audits/{id}: one audit and its flash report
  defineOperation({
    method: "get", path: "/night_audits/{id}", operationId: "getNightAudit", summary: "Retrieve a night audit", tag, scope: "reports:read", description,
    params: idParam("na"), response: nightAuditSchema,
    handler: async ({ ctx, params }) => presentNightAudit(await findOwned(ctx.db, nightAudits, ctx.tenant, params.id, "night_audit")),
  }),
];
