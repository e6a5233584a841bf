import { isoTime } from "@/server/dates";
import type { auditLog } from "@/db/schema";

type AuditRow = typeof auditLog.$inferSelect;

/** Fields whose value differs between two presented objects (top level), for the trail's "what changed". */
export function changedFields(before: unknown, after: unknown): string[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = (after ?? {}) as Record<string, unknown>;
  const ignored = new Set(["updated_at", "object", "livemode"]);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !ignored.has(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

export const presentAudit = (row: AuditRow) => ({
  id: row.id,
  object: "audit_entry" as const,
  action: row.action,
  object_type: row.objectType,
  object_id: row.objectId,
  actor: { id: row.actorId, email: row.actorEmail },
  before: row.before,
  after: row.after,
  changed: changedFields(row.before, row.after),
  livemode: row.livemode,
  created_at: isoTime(row.createdAt),
});
