import { isDeepStrictEqual } from "node:util";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { auditLog, properties, ratePlans, reservations, rooms, roomTypes } from "@/db/schema";
import { propertyLocale } from "@/lib/money";
import { ownedBy } from "@/server/tenancy";
import { auditReferences, type AuditContext } from "./present";
import { newId } from "@/server/ids";
import { insertRows } from "@/db/prepared";
import { keyset, toPage, type PageRequest } from "@/server/pagination";
import type { Ctx, Tenant } from "@/server/tenancy";
import { emitEvents } from "@/server/events/emit";
import { sideBySide } from "@/server/side-by-side";
import type { Area } from "@/lib/access";

/**
 * Who made a change: a staff member in the dashboard, or through `/v1` an API key (its id and
 * name) or an OAuth app (its client id and name, with the e-mail of the staff member who
 * installed it), or the night audit, named as they were at the time, for the trail's sentence.
 * Never a secret.
 */
export type AuditActor =
  | { type?: "staff"; id: string; email: string }
  | { type: "api_key"; id: string; name: string | null }
  | { type: "oauth_app"; id: string; name: string | null; email?: string | null }
  /** The night audit: by itself (id `night_audit`, no e-mail), or run by hand (the staff member's id and e-mail). */
  | { type: "night_audit"; id: string; email: string | null }
  /** A guest on the property's booking engine (id `booking_engine`): the change is theirs, made on the public page. */
  | { type: "booking_engine"; id: string; name: string | null };

/**
 * The options of a service that changes data: the tenant, and who is changing it, so that the
 * service writes the trail's entry in the change's own transaction. `null`: a step of a larger
 * change that is on the trail as a whole (a sandbox reset's seeding), or no one's (tests' fixtures).
 */
export type ChangeCtx = Ctx & { actor: AuditActor | null };

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
  group: "reservations",
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

/**
 * Records changes, with presented objects, in the change's own transaction (`db` = its `tx`): one
 * INSERT however many entries (a range of rooms). No actor: nothing is written.
 */
export async function recordAudit({
  db,
  tenant,
  actor,
  entry,
}: {
  db: Executor;
  tenant: Tenant;
  actor: AuditActor | null;
  entry: AuditEntry | AuditEntry[];
}): Promise<void> {
  if (!actor) return;
  // A change that changed nothing (a PATCH of the values already there) is no entry.
  const entries = (Array.isArray(entry) ? entry : [entry]).filter(
    (e) => e.before === undefined || e.after === undefined || !isDeepStrictEqual(e.before, e.after),
  );
  if (!entries.length) return;
  // A statement built once: the hot paths (a booking, a new guest) send it beside their events.
  await insertRows(
    db,
    "audit_insert",
    auditLog,
    entries.map((e) => ({
      id: newId("audit"),
      accountId: tenant.accountId,
      livemode: tenant.livemode,
      actorType: actor.type ?? "staff",
      actorId: actor.id,
      actorEmail: "email" in actor ? (actor.email ?? null) : null,
      actorName: "name" in actor ? actor.name : null,
      action: e.action,
      objectType: e.objectType,
      objectId: e.objectId,
      before: e.before ?? null,
      after: e.after ?? null,
    })),
  );
}

type Emitted = Parameters<typeof emitEvents>[2];

/**
 * Writes a change's events and its trail entry together, on the change's transaction: sent side
 * by side, so the entry travels in the events' round trip and costs the change no wait of its own.
 */
export async function recordChange(
  tx: Executor,
  { tenant, actor }: Pick<ChangeCtx, "tenant" | "actor">,
  events: Emitted,
  entry: AuditEntry | AuditEntry[] | null,
): Promise<void> {
  const [emitted, audited] = await sideBySide([
    emitEvents(tx, tenant, events),
    entry ? recordAudit({ db: tx, tenant, actor, entry }) : Promise.resolve(),
  ]);
  emitted();
  audited();
}

/** The trail's entry of one change, in the change's own transaction (a change with no event of its own). */
export const audit = (tx: Executor, { tenant, actor }: Pick<ChangeCtx, "tenant" | "actor">, entry: AuditEntry | AuditEntry[]) =>
  recordAudit({ db: tx, tenant, actor, entry });

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

/**
 * What a page of trail entries needs to be told in sentences: the names of the rooms, room
 * types and rate plans they refer to, and the property's zone, number format and currency (the
 * entries' own property, else the account's first).
 */
export async function auditContext({
  db,
  tenant,
  rows,
}: {
  db: Executor;
  tenant: Tenant;
  rows: (typeof auditLog.$inferSelect)[];
}): Promise<AuditContext> {
  const refs = auditReferences(rows);
  const reservationIds = rows.filter((r) => r.objectType === "reservation").map((r) => r.objectId);
  const some = <T>(ids: Set<string> | string[], run: (ids: string[]) => Promise<T[]>) =>
    (ids instanceof Set ? ids.size : ids.length) ? run([...ids]) : Promise.resolve([] as T[]);
  const [roomRows, typeRows, planRows, stayRows] = await Promise.all([
    some(refs.rooms, (ids) =>
      db
        .select({ id: rooms.id, number: rooms.number, propertyId: rooms.propertyId })
        .from(rooms)
        .where(ownedBy(rooms, tenant, inArray(rooms.id, ids))),
    ),
    some(refs.roomTypes, (ids) =>
      db
        .select({ id: roomTypes.id, name: roomTypes.name, propertyId: roomTypes.propertyId })
        .from(roomTypes)
        .where(ownedBy(roomTypes, tenant, inArray(roomTypes.id, ids))),
    ),
    some(refs.ratePlans, (ids) =>
      db
        .select({ id: ratePlans.id, name: ratePlans.name, propertyId: ratePlans.propertyId })
        .from(ratePlans)
        .where(ownedBy(ratePlans, tenant, inArray(ratePlans.id, ids))),
    ),
    some(reservationIds, (ids) =>
      db
        .select({ propertyId: reservations.propertyId })
        .from(reservations)
        .where(ownedBy(reservations, tenant, inArray(reservations.id, ids)))
        .limit(1),
    ),
  ]);
  const propertyId =
    [...refs.properties][0] ?? stayRows[0]?.propertyId ?? roomRows[0]?.propertyId ?? typeRows[0]?.propertyId ?? planRows[0]?.propertyId;
  const [property] = await db
    .select({ timezone: properties.timezone, currency: properties.currency, address: properties.address })
    .from(properties)
    .where(ownedBy(properties, tenant, propertyId ? eq(properties.id, propertyId) : undefined))
    .orderBy(asc(properties.createdAt))
    .limit(1);
  return {
    place: property
      ? { timezone: property.timezone, currency: property.currency, locale: propertyLocale(property.address?.country) }
      : { timezone: "UTC", currency: "USD", locale: propertyLocale(null) },
    rooms: new Map(roomRows.map((r) => [r.id, r.number])),
    roomTypes: new Map(typeRows.map((t) => [t.id, t.name])),
    ratePlans: new Map(planRows.map((p) => [p.id, p.name])),
  };
}
