import { and, asc, eq, inArray, isNull, lte, max } from "drizzle-orm";
import { recordChange, type AuditActor, type ChangeCtx } from "@/server/audit/audit";
import type { Db, Executor, Tx } from "@/db/client";
import { guests, nightAudits, properties, reservations, rooms } from "@/db/schema";
import { addDays, formatDay, todayIn, type IsoDate } from "@/lib/dates";
import { propertyLocale } from "@/lib/money";
import { ApiError } from "@/server/errors";
import { logger } from "@/server/observability/logger";
import { chargeFeesOnFile } from "./fees-on-file";
import { newId } from "@/server/ids";
import { presentInventoryRange } from "@/server/inventory/events";
import { auditDueAt, businessToday, isClosedDay } from "@/server/properties/business-date";
import { writeRoomStatus } from "@/server/housekeeping/room-status";
import { presentReservation } from "@/server/reservations/present";
import { chargeNoShow, releaseWithoutCharge } from "@/server/reservations/transitions";
import { moveStayEnd } from "@/server/reservations/stay-end";
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
  const calendar = todayIn(property.timezone, now);
  let day = calendar;
  while (auditDueAt(day, property).getTime() > now.getTime()) day = addDays(day, -1);
  if (property.businessDate) return property.businessDate > day ? null : day;
  // Never audited: the property trades on its calendar date, so its first audit closes the day
  // before that date at the earliest. (Made between midnight and the audit hour, it would
  // otherwise close a day it never traded, and its today would go back to yesterday.)
  return addDays(day, 1) < calendar ? null : day;
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
  const audit = await inTransaction(db, async (tx) => {
    const [property] = await tx.select().from(properties).where(eq(properties.id, propertyId)).for("update");
    if (!property) return null;
    const date = day ?? (closeCurrentDay ? businessToday(property, now) : dueDate(property, now));
    if (!date) return null;
    if (await auditOf(tx, property.id, date)) return null;
    const tenant: Tenant = { accountId: property.accountId, livemode: property.livemode, propertyIds: null };
    const noShows = await markNoShows(tx, { tenant, actor }, property, date);
    const inHouse = await sellOverstays(tx, { tenant, actor }, property, date);
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
  if (audit) {
    // The day is closed whatever Stripe answers: no-show and cancellation fees go to cards on file once it has committed.
    const tenant: Tenant = { accountId: audit.accountId, livemode: audit.livemode, propertyIds: null };
    await chargeFeesOnFile(db, tenant, actor, audit.propertyId).catch((error: unknown) =>
      logger.error({ component: "night-audit", property_id: audit.propertyId, err: error }, "fees not charged to cards on file"),
    );
  }
  return audit;
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

/**
 * Guests still in house past departure on the day that closes (checked in, departure on or before
 * it), locked. With the property's `overstay_at_audit` at `extend` (the default), each stay is
 * extended by the nights up to the next day, sold and posted as an extension is (room nights with
 * their taxes on the nights they are for, inventory, events), inside the audit, so the closed
 * day's flash counts the night and nothing has to post into it afterwards; with `refuse`, the day
 * does not close (409 naming them) until the desk checks them out or extends their stays. A stay
 * whose departure is before the open business date (left from before this rule) has nights in
 * closed days that can no longer be sold: it is only flagged.
 */
async function sellOverstays(tx: Tx, { tenant, actor }: Pick<ChangeCtx, "tenant" | "actor">, property: Property, date: IsoDate) {
  const staying = await tx
    .select()
    .from(reservations)
    .where(and(eq(reservations.propertyId, property.id), eq(reservations.status, "checked_in"), lte(reservations.checkOut, date)))
    .orderBy(asc(reservations.checkOut), asc(reservations.id))
    .for("update");
  if (!staying.length) return [];
  const guestsOf = new Map(
    (await tx.select().from(guests).where(inArray(guests.id, [...new Set(staying.map((r) => r.guestId))]))).map((g) => [g.id, g]),
  );
  if (property.overstayAtAudit === "refuse") {
    const locale = propertyLocale(property.address?.country);
    const names = staying.map((r) => `${guestsOf.get(r.guestId)?.firstName ?? ""} ${guestsOf.get(r.guestId)?.lastName ?? ""}`.trim() + ` (due out ${formatDay(r.checkOut, locale, "medium")})`);
    throw new ApiError(
      "invalid_state_transition",
      `The business day of ${formatDay(date, locale, "long")} cannot close: ${names.join(", ")} ${staying.length === 1 ? "is" : "are"} still in house past departure. Check them out or extend their stays, then close the day.`,
    );
  }
  const next = addDays(date, 1);
  for (const r of staying) {
    if (isClosedDay(property, r.checkOut)) continue;
    const moved = await moveStayEnd(tx, tenant, r, next, "check_out", true);
    const [updated] = await tx
      .update(reservations)
      .set({ ...moved.changes, updatedAt: new Date() })
      .where(eq(reservations.id, r.id))
      .returning();
    const guest = guestsOf.get(r.guestId)!;
    const after = presentReservation({ reservation: updated, guest });
    await recordChange(tx, { tenant, actor }, [{ type: "reservation.updated", propertyId: r.propertyId, object: after }, ...moved.events], {
      action: "reservation.departure_changed",
      objectType: "reservation",
      objectId: r.id,
      before: presentReservation({ reservation: r, guest }),
      after,
    });
  }
  return staying;
}

/**
 * Confirmed stays arriving on or before `date` that never arrived: no-shows, with the plan's fee.
 * A guest the desk turned away for want of a ready room (`check_in_refused_at`) is the hotel's
 * shortfall, not a no-show: the stay is cancelled with no charge (its room nights off the folio,
 * no fee), with the reason on the reservation. Returns the no-shows.
 */
async function markNoShows(tx: Tx, { tenant, actor }: Pick<ChangeCtx, "tenant" | "actor">, property: Property, date: IsoDate): Promise<string[]> {
  const due = await tx
    .select()
    .from(reservations)
    .where(and(eq(reservations.propertyId, property.id), eq(reservations.status, "confirmed"), lte(reservations.checkIn, date)))
    .orderBy(asc(reservations.checkIn), asc(reservations.id))
    .for("update");
  for (const r of due) {
    const turnedAway = r.checkInRefusedAt !== null;
    if (turnedAway) await releaseWithoutCharge(tx, r);
    else await chargeNoShow(tx, tenant, r, property);
    const now = new Date();
    const [updated] = await tx
      .update(reservations)
      .set(turnedAway ? { status: "cancelled", cancelledAt: now, cancellationReason: turnedAwayReason, updatedAt: now } : { status: "no_show", updatedAt: now })
      .where(eq(reservations.id, r.id))
      .returning();
    const [guest] = await tx.select().from(guests).where(eq(guests.id, r.guestId));
    const after = presentReservation({ reservation: updated, guest });
    await recordChange(
      tx,
      { tenant, actor },
      [
        { type: turnedAway ? "reservation.cancelled" : "reservation.updated", propertyId: r.propertyId, object: after },
        { type: "inventory.updated", propertyId: r.propertyId, object: presentInventoryRange({ propertyId: r.propertyId, roomTypeId: r.roomTypeId, from: r.checkIn, to: r.checkOut }) },
      ],
      { action: turnedAway ? "reservation.cancelled" : "reservation.no_show", objectType: "reservation", objectId: r.id, before: presentReservation({ reservation: r, guest }), after },
    );
  }
  return due.filter((r) => r.checkInRefusedAt === null).map((r) => r.id);
}

/** Why the audit cancelled a stay it did not mark a no-show. */
export const turnedAwayReason = "Check-in was refused for want of a ready room (the hotel's shortfall): cancelled by the night audit with no charge.";

/** Runs every property's audit that is due at `now` (the embedded scheduler and the Inngest cron); one property's refusal (overstays named) does not hold up the others. */
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
    try {
      const audit = await runNightAudit({ db, propertyId: p.id, trigger: "scheduled", now });
      if (audit) ran.push(audit.id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      logger.warn({ component: "night-audit", property_id: p.id, date, reason: error.message }, "night audit refused");
    }
  }
  return ran;
}
