import { and, asc, eq } from "drizzle-orm";
import { properties } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { runNightAudit } from "@/server/night-audit/run-audit";
import { presentNightAudit } from "@/server/night-audit/present";
import { findOwned } from "@/server/tenancy";
import type { ChangeCtx } from "@/server/audit/audit";

/**
 * POST /v1/sandbox/advance_day: runs the night audit of the sandbox's properties (or of one) at
 * once, closing each one's current business day, so its business date moves a day forward:
 * integrators see no-shows, the flash report and `night_audit.completed` without waiting.
 */
export async function advanceSandboxDay({ db, tenant, actor, propertyId }: ChangeCtx & { propertyId?: string }) {
  if (tenant.livemode) {
    throw new ApiError("invalid_environment", "Only the sandbox's day can be advanced; send 'Service-Environment: sandbox'.", { param: "Service-Environment" });
  }
  const ids = propertyId
    ? [(await findOwned(db, properties, tenant, propertyId, "property", { param: "property_id" })).id]
    : (
        await db
          .select({ id: properties.id })
          .from(properties)
          .where(and(eq(properties.accountId, tenant.accountId), eq(properties.livemode, false)))
          .orderBy(asc(properties.createdAt), asc(properties.id))
      ).map((p) => p.id);
  const audits = [];
  for (const id of ids) {
    const audit = await runNightAudit({ db, propertyId: id, trigger: "advance_day", closeCurrentDay: true, actor: actor ?? undefined });
    if (audit) audits.push(presentNightAudit(audit));
  }
  return { object: "sandbox_advance_day" as const, livemode: false as const, audits };
}
