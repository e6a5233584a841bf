import { recordAudit, type AuditEntry } from "@/server/audit/audit";
import type { Db } from "@/db/client";
import type { Tenant } from "@/server/tenancy";

type StaffCtx = { db: Db; tenant: Tenant; user: { id: string; email: string } };

/**
 * Records a dashboard change in the audit trail, by the signed-in staff member. Every tRPC
 * mutation that changes data calls this after its service call succeeded:
 * `await audit(ctx, { action: "reservation.checked_in", objectType: "reservation", objectId, before, after })`.
 */
export function audit(ctx: StaffCtx, entry: AuditEntry): Promise<void> {
  return recordAudit({ db: ctx.db, tenant: ctx.tenant, actor: { id: ctx.user.id, email: ctx.user.email }, entry });
}
