import { and, asc, eq, isNull, lte, max } from "drizzle-orm";
import { recordChange, type AuditActor, type ChangeCtx } from "@/server/audit/audit";
import type { Db, Executor, Tx } from "@/db/client";
import { guests, nightAudits, properties, reservations, rooms } from "@/db/schema";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import { newId } from "@/server/ids";
import { presentInventoryRange } from "@/server/inventory/events";
import { auditDueAt, businessToday } from "@/server/properties/business-date";
import { writeRoomStatus } from "@/server/housekeeping/room-status";
import { presentReservation } from "@/server/reservations/present";
import { chargeNoShow } from "@/server/reservations/transitions";
import type { Tenant } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";
import { flashReport } from "./flash";
import { presentNightAudit } from "./present";

type Property = typeof properties.$inferSelect;

/** The night audit as the trail names it: by itself, or run by hand by a staff member (named too). */
export const nightAuditActor = (by?: { id: string; email: string }): AuditActor => ({ type: "night_audit", id: by?.id ?? "night_audit", email: by?.email ?? null });
export type AuditTrigger = (typeof nightAudits.$inferSelect)["trigger"];

/** The audit that closed `date` at the property, or null: its row is what makes a date close once. */
export async function auditOf(db: Executor, propertyId: string, date: IsoDate) {
  const [done] = await db.select().from(nightAudits).where(and(eq(nightAudits.propertyId, propertyId), eq(nightAudits.businessDate, date)));
  return done ?? null;
}

/**
 * The latest business date whose audit hour has come at `now`, or null when the business date
 * is already past it (the sandbox's advance_day ran ahead of the clock, or that day is closed).
 */
export function dueDate(property: Pick<Property, "timezone" | "auditHour" | "businessDate">, now = new Date()): IsoDate | null {
  let day = todayIn(property.timezone, now);
  while (auditDueAt(day, property).getTime() > now.getTime()) day = addDays(day, -1);
  return property.businessDate && property.businessDate > day ? null : day;
}

/**
 * Closes one business day of a property, exactly once. Runners take the property's row lock
 * (PostgreSQL `FOR UPDATE`, held to commit), so two workers or instances run one after the
 * other; the second finds the day's audit written (or the business date moved past it) and does
 * nothing. In one transaction: confirmed arrivals of the day (or earlier) still unarrived become
 * no-shows with their fee, departures still in house are flagged, the day's flash report is
 * written, the business date moves to the next day, rooms whose out-of-order block ends by then
 * go back into service, and `night_audit.completed` announces it.
 *
 * The day closed: `date` when given (a run by hand, whose caller checked that the day may be
 * closed), else the property's current business day whatever the hour (`closeCurrentDay`, the
 * sandbox's advance_day), else the day due at `now` (scheduled runs). Each no-show and the
 * day's close are on the trail by `actor`: the night audit itself (`nightAuditActor`), named
 * with the staff member who ran it by hand, or the API key of an advance_day.
 */
export async function runNightAudit({
  db,
  propertyId,
  trigger,
  now = new Date(),
  closeCurrentDay = false,
  date: day,
  actor = nightAuditActor(),
}: {
  db: Db;
  propertyId: string;
  trigger: AuditTrigger;
  now?: Date;
  closeCurrentDay?: boolean;
  date?: IsoDate;
  actor?: AuditActor;
}) {
  return inTransaction(db, async (tx) => {
    const [property] = await tx.select().from(properties).where(eq(properties.id, propertyId)).for("update");
    if (!property) return null;
    const date = day ?? (closeCurrentDay ? businessToday(property, now) : dueDate(property, now));
    if (!date) return null;
    if (await auditOf(tx, property.id, date)) return null;
    const tenant: Tenant = { accountId: property.accountId, livemode: property.livemode, propertyIds: null };
    const noShows = await markNoShows(tx, { tenant, actor }, property, date);
    const inHouse = await tx
      .select({ id: reservations.id })
      .from(reservations)
      .where(and(eq(reservations.propertyId, property.id), eq(reservations.status, "checked_in"), lte(reservations.checkOut, date)))
      .orderBy(asc(reservations.checkOut), asc(reservations.id));
    const flash = await flashReport(tx, property, date);
    const [audit] = await tx
      .insert(nightAudits)
      .values({
        id: newId("nightAudit"),
        accountId: property.accountId,
        livemode: property.livemode,
        propertyId: property.id,
        businessDate: date,
        trigger,
        noShows,
        departuresInHouse: inHouse.map((r) => r.id),
        flash,
      })
      .returning();
    const next = addDays(date, 1);
    if (!property.businessDate || property.businessDate < next) {
      await tx.update(properties).set({ businessDate: next, updatedAt: new Date() }).where(eq(properties.id, property.id));
    }
    await returnToService(tx, { tenant, actor }, property, next);
    await recordChange(tx, { tenant, actor }, [{ type: "night_audit.completed", propertyId: property.id, object: presentNightAudit(audit) }], {
      action: "property.day_closed",
      objectType: "property",
      objectId: property.id,
      before: { business_date: date },
      after: { business_date: next, no_shows: noShows.length },
    });
    return audit;
  });
}

/**
 * Rooms whose out-of-order block ends by the day that opens go back into service, dirty (to be
 * cleaned and checked before a guest has them), in the audit's transaction: inventory already
 * sells them from that day, so the desk can now clean and let them (a room left out of order was
 * sold but could not be checked into).
 */
async function returnToService(tx: Tx, { tenant, actor }: Pick<ChangeCtx, "tenant" | "actor">, property: Property, opens: IsoDate) {
  const ended = await tx
    .select()
    .from(rooms)
    .where(and(eq(rooms.propertyId, property.id), eq(rooms.housekeepingStatus, "out-of-order"), lte(rooms.outOfOrderUntil, opens), isNull(rooms.retiredAt)))
    .orderBy(asc(rooms.number))
    .for("update");
  for (const room of ended) await writeRoomStatus(tx, { tenant, actor }, room, "dirty", { reason: null, until: null });
}

/** Confirmed stays arriving on or before `date` that never arrived: no-shows, with the plan's fee. */
async function markNoShows(tx: Tx, { tenant, actor }: Pick<ChangeCtx, "tenant" | "actor">, property: Property, date: IsoDate): Promise<string[]> {
  const due = await tx
    .select()
    .from(reservations)
    .where(and(eq(reservations.propertyId, property.id), eq(reservations.status, "confirmed"), lte(reservations.checkIn, date)))
    .orderBy(asc(reservations.checkIn), asc(reservations.id))
    .for("update");
  for (const r of due) {
    await chargeNoShow(tx, tenant, r);
    const [updated] = await tx.update(reservations).set({ status: "no_show", updatedAt: new Date() }).where(eq(reservations.id, r.id)).returning();
    const [guest] = await tx.select().from(guests).where(eq(guests.id, r.guestId));
    const after = presentReservation({ reservation: updated, guest });
    await recordChange(
      tx,
      { tenant, actor },
      [
        { type: "reservation.updated", propertyId: r.propertyId, object: after },
        { type: "inventory.updated", propertyId: r.propertyId, object: presentInventoryRange({ propertyId: r.propertyId, roomTypeId: r.roomTypeId, from: r.checkIn, to: r.checkOut }) },
      ],
      { action: "reservation.no_show", objectType: "reservation", objectId: r.id, before: presentReservation({ reservation: r, guest }), after },
    );
  }
  return due.map((r) => r.id);
}

/** Runs every property's audit that is due at `now` (the embedded scheduler and the Inngest cron). */
export async function runDueAudits(db: Db, now = new Date()) {
  const [all, closed] = await Promise.all([
    db.select({ id: properties.id, timezone: properties.timezone, auditHour: properties.auditHour, businessDate: properties.businessDate }).from(properties),
    db.select({ propertyId: nightAudits.propertyId, last: max(nightAudits.businessDate) }).from(nightAudits).groupBy(nightAudits.propertyId),
  ]);
  const lastClosed = new Map(closed.map((c) => [c.propertyId, c.last]));
  const ran: string[] = [];
  for (const p of all) {
    const date = dueDate(p, now);
    const last = lastClosed.get(p.id);
    if (!date || (last && last >= date)) continue;
    const audit = await runNightAudit({ db, propertyId: p.id, trigger: "scheduled", now });
    if (audit) ran.push(audit.id);
  }
  return ran;
}
