import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { auditLog } from "@/db/schema";
import { newId } from "@/server/ids";
import { keyset, toPage, type PageRequest } from "@/server/pagination";
import type { Tenant } from "@/server/tenancy";
import type { Area } from "@/server/staff/access";

/** The staff member behind a change. */
export type AuditActor = { id: string; email: string };

export type AuditEntry = {
  /** `<object_type>.<verb>`, e.g. `reservation.checked_in`, `api_key.revoked`. */
  action: string;
  objectType: string;
  objectId: string;
  /** The object as presented before the change (omit for creations). */
  before?: unknown;
  /** The object as presented after it (omit for deletions). */
  after?: unknown;
};

/**
 * Which access area may read an object type's trail: the area that may see the object itself,
 * so the trail never shows a role more than the object's page does. Unknown types: owners and
 * managers only.
 */
const auditAreas: Record<string, Area> = {
  reservation: "reservations",
  folio: "reservations",
  guest: "guests",
  payment: "payments",
  refund: "payments",
  room: "housekeepingRead",
  housekeeping_assignment: "housekeepingRead",
  room_type: "rates",
  rate_plan: "rates",
  inventory_hold: "availability",
  webhook_endpoint: "developers",
  api_key: "developers",
  account: "settings",
  property: "setup",
  user: "users",
};

export const auditAreaOf = (objectType: string): Area => auditAreas[objectType] ?? "settings";

/** Records one staff change. Call it after the change is committed, with presented objects. */
export async function recordAudit({ db, tenant, actor, entry }: { db: Executor; tenant: Tenant; actor: AuditActor; entry: AuditEntry }): Promise<void> {
  await db.insert(auditLog).values({
    id: newId("audit"),
    accountId: tenant.accountId,
    livemode: tenant.livemode,
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/**
 * One object's trail, newest first. Scoped by account and object id: ids are unique across
 * environments, and account-wide objects (users, apps) have a trail whichever data set is on screen.
 */
export async function listAudit({ db, tenant, objectId, page }: { db: Executor; tenant: Tenant; objectId: string; page: PageRequest }) {
  const q = keyset(auditLog, page);
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.accountId, tenant.accountId), eq(auditLog.objectId, objectId), q.where))
    .orderBy(...q.orderBy)
    .limit(q.limit);
  return toPage(rows, page);
}
