import { and, asc, eq, inArray } from "drizzle-orm";
import { folioCharges, guests, properties, reservations, rooms } from "@/db/schema";
import type { ChangeCtx } from "@/server/audit/audit";
import { addDays, formatDay, formatMoment, type IsoDate } from "@/lib/dates";
import { ApiError } from "@/server/errors";
import { propertyLocale, type Money } from "@/lib/money";
import { handCloseDay } from "@/server/properties/business-date";
import { findOwned, type Ctx } from "@/server/tenancy";
import { rolledBack } from "@/db/transactions";
import { presentNightAudit } from "./present";
import { auditOf, nightAuditActor, runNightAudit } from "./run-audit";

type Property = typeof properties.$inferSelect;

/** Why the day cannot be closed by hand yet, in words: the date and the moment it can. */
function tooEarly(property: Property, date: IsoDate, opensAt: Date) {
  const locale = propertyLocale(property.address?.country);
  return `The business day of ${formatDay(date, locale, "long")} can be closed from ${formatMoment(opensAt, { timezone: property.timezone, locale })}, once it is over: its guests may still arrive until then.`;
}

/**
 * What the night audit run by hand now would do, for its confirmation: the business date it
 * closes (and the next), whether it may run yet (and else why not, in words), the arrivals it
 * would mark no-shows with the fee each is charged, and the departures still in house it flags.
 * The audit itself runs and is rolled back, so the fees are those the run would post.
 */
export async function planNightAuditByHand({ db, tenant, propertyId, now = new Date() }: Ctx & { propertyId: string; now?: Date }) {
  const property = await findOwned(db, properties, tenant, propertyId, "property", { param: "property_id" });
  const day = handCloseDay(property, now);
  const base = { business_date: day.date, next_business_date: addDays(day.date, 1), opens_at: day.opensAt.toISOString() };
  if (!day.open) return { ...base, open: false as const, reason: tooEarly(property, day.date, day.opensAt), arrivals: [], departures: [] };
  const money = (amount: number): Money => ({ amount, currency: property.currency });
  return rolledBack(db, async (tx) => {
    let audit;
    try {
      audit = await runNightAudit({ db: tx, propertyId: property.id, trigger: "manual", date: day.date, now });
    } catch (error) {
      // The audit refuses to close the day (guests in house past departure, as the property chose): say why.
      if (!(error instanceof ApiError)) throw error;
      return { ...base, open: false as const, reason: error.message, arrivals: [], departures: [] };
    }
    const noShows = audit?.noShows ?? [];
    const flagged = audit?.departuresInHouse ?? [];
    const [stays, fees] = await Promise.all([
      noShows.length + flagged.length
        ? tx
            .select({ id: reservations.id, checkIn: reservations.checkIn, checkOut: reservations.checkOut, first: guests.firstName, last: guests.lastName, room: rooms.number })
            .from(reservations)
            .innerJoin(guests, eq(guests.id, reservations.guestId))
            .leftJoin(rooms, eq(rooms.id, reservations.roomId))
            .where(inArray(reservations.id, [...noShows, ...flagged]))
            .orderBy(asc(reservations.checkIn), asc(reservations.id))
        : [],
      noShows.length
        ? tx
            .select({ reservationId: folioCharges.reservationId, amount: folioCharges.amount })
            .from(folioCharges)
            .where(and(inArray(folioCharges.reservationId, noShows), eq(folioCharges.kind, "no_show_fee")))
        : [],
    ]);
    const name = (s: (typeof stays)[number]) => `${s.first} ${s.last}`;
    return {
      ...base,
      open: true as const,
      reason: null,
      arrivals: stays
        .filter((s) => noShows.includes(s.id))
        .map((s) => ({
          reservation_id: s.id,
          guest_name: name(s),
          check_in: s.checkIn,
          fee: money(fees.filter((f) => f.reservationId === s.id).reduce((sum, f) => sum + f.amount, 0)),
        })),
      departures: stays.filter((s) => flagged.includes(s.id)).map((s) => ({ reservation_id: s.id, guest_name: name(s), check_out: s.checkOut, room_number: s.room })),
    };
  });
}

export type NightAuditPlan = Awaited<ReturnType<typeof planNightAuditByHand>>;

/**
 * Runs the night audit by hand (owners and managers, from the reports page): the very service the
 * scheduler runs, under the same lock, closing `businessDate`, the date the staff member confirmed.
 * Once, however often it is asked: a date already closed (by this run, a click before, or the
 * scheduler) gives its audit back and changes nothing. A date that may not be closed yet (see
 * `handCloseAt`), or another date than the one due, is refused with nothing changed.
 */
export async function runNightAuditByHand({
  db,
  tenant,
  actor,
  propertyId,
  businessDate,
  now = new Date(),
}: ChangeCtx & { propertyId: string; businessDate: IsoDate; now?: Date }) {
  const property = await findOwned(db, properties, tenant, propertyId, "property", { param: "property_id" });
  const done = await auditOf(db, property.id, businessDate);
  if (done) return { ran: false, audit: presentNightAudit(done) };
  const day = handCloseDay(property, now);
  const locale = propertyLocale(property.address?.country);
  if (businessDate !== day.date) {
    throw new ApiError("parameter_invalid", `The business day to close is ${formatDay(day.date, locale, "long")}, not ${formatDay(businessDate, locale, "long")}.`, {
      param: "business_date",
    });
  }
  if (!day.open) throw new ApiError("invalid_state_transition", tooEarly(property, day.date, day.opensAt));
  const by = actor && (actor.type === undefined || actor.type === "staff") ? { id: actor.id, email: actor.email } : undefined;
  const audit = await runNightAudit({ db, propertyId: property.id, trigger: "manual", date: businessDate, now, actor: nightAuditActor(by) });
  // Null: another run (the scheduler, a second click) closed the day first, under the lock.
  if (audit) return { ran: true, audit: presentNightAudit(audit) };
  return { ran: false, audit: presentNightAudit((await auditOf(db, property.id, businessDate))!) };
}
