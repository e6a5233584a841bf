import { asc, eq, gt, inArray, isNull, lt } from "drizzle-orm";
import type { ChangeCtx } from "@/server/audit/audit";
import { z } from "zod";
import { guests, properties, reservations, roomTypes, rooms } from "@/db/schema";
import { addDays, nightsOf } from "@/lib/dates";
import { ApiError } from "@/server/errors";
import type { Money } from "@/lib/money";
import { businessToday } from "@/server/properties/business-date";
import { date } from "@/server/schemas";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";
import { rolledBack } from "@/db/transactions";
import { changeDeparture, previewDeparture } from "./change-departure";
import { moveRoom } from "./in-house";
import { reservationPrice } from "./present";
import { loadReservation } from "./reservations";
import { previewReservationUpdate, updateReservation } from "./update-reservation";

/** Statuses drawn on the chart: the stays that hold (or held) a room on their nights. */
const drawnStatuses = ["confirmed", "checked_in", "checked_out"] as const;

export const tapeChartQuery = z.strictObject({
  property_id: z.string().min(1).max(64),
  /** First night shown; the property's today when absent. */
  from: date.optional(),
  nights: z.number().int().min(1).max(62).default(14),
});
export type TapeChartQuery = z.output<typeof tapeChartQuery>;

/**
 * One change a clerk makes on the chart: a stay in house to another room of its type, a
 * confirmed stay to another room type (its room is chosen at check-in), or a new departure.
 */
export const stayChangeSchema = z.union([
  z.strictObject({ reservation_id: z.string().min(1).max(64), room_id: z.string().min(1).max(64) }),
  z.strictObject({ reservation_id: z.string().min(1).max(64), room_type_id: z.string().min(1).max(64) }),
  z.strictObject({ reservation_id: z.string().min(1).max(64), check_out: date }),
]);
export type StayChange = z.output<typeof stayChangeSchema>;

/**
 * The room tape chart of one property over `nights` nights from `from`: its room types with
 * their rooms (by floor and number), every confirmed, in-house or departed stay touching the
 * window (a confirmed stay has no room until check-in, so it sits in its type's unassigned row),
 * and the out-of-order blocks, from today to the night the room is back (or the window's end).
 */
export async function getTapeChart({ db, tenant, query }: Ctx & { query: TapeChartQuery }) {
  const property = await findOwned(db, properties, tenant, query.property_id, "property", { param: "property_id" });
  const today = businessToday(property);
  const from = query.from ?? today;
  const to = addDays(from, query.nights);
  const [types, roomRows, stayRows] = await Promise.all([
    db.select().from(roomTypes).where(ownedBy(roomTypes, tenant, eq(roomTypes.propertyId, property.id))).orderBy(asc(roomTypes.name), asc(roomTypes.id)),
    db
      .select()
      .from(rooms)
      .where(ownedBy(rooms, tenant, eq(rooms.propertyId, property.id), isNull(rooms.retiredAt)))
      .orderBy(asc(rooms.floor), asc(rooms.number)),
    db
      .select({ reservation: reservations, firstName: guests.firstName, lastName: guests.lastName })
      .from(reservations)
      .innerJoin(guests, eq(guests.id, reservations.guestId))
      .where(
        ownedBy(
          reservations,
          tenant,
          eq(reservations.propertyId, property.id),
          inArray(reservations.status, [...drawnStatuses]),
          lt(reservations.checkIn, to),
          gt(reservations.checkOut, from),
        ),
      )
      .orderBy(asc(reservations.checkIn), asc(reservations.id)),
  ]);
  const roomIds = new Set(roomRows.map((r) => r.id));
  const stays = stayRows.map(({ reservation: r, firstName, lastName }) => ({
    reservation_id: r.id,
    guest_name: `${firstName} ${lastName}`,
    status: r.status,
    room_type_id: r.roomTypeId,
    // A stay whose room was retired since is drawn in the unassigned row rather than lost.
    room_id: r.roomId && roomIds.has(r.roomId) ? r.roomId : null,
    check_in: r.checkIn,
    check_out: r.checkOut,
    total: { amount: r.totalAmount, currency: r.currency } satisfies Money,
    /** What the chart lets a clerk change: the services below decide the rest. */
    can_move: r.status === "checked_in" || r.status === "confirmed",
    can_resize: r.status === "checked_in" || r.status === "confirmed",
  }));
  const blocks = roomRows
    .filter((r) => r.housekeepingStatus === "out-of-order")
    .map((r) => ({ room_id: r.id, from: today > from ? today : from, to: r.outOfOrderUntil && r.outOfOrderUntil < to ? r.outOfOrderUntil : to, reason: r.outOfOrderReason }))
    .filter((b) => b.from < b.to);
  return {
    property: { id: property.id, name: property.name, timezone: property.timezone, currency: property.currency },
    today,
    from,
    to,
    nights: nightsOf(from, to),
    room_types: types.map((t) => ({
      id: t.id,
      name: t.name,
      rooms: roomRows
        .filter((r) => r.roomTypeId === t.id)
        .map((r) => ({ id: r.id, number: r.number, floor: r.floor, housekeeping_status: r.housekeepingStatus, occupied: r.occupied })),
    })),
    stays,
    blocks,
  };
}

export type TapeChart = Awaited<ReturnType<typeof getTapeChart>>;

/** Which existing service a chart change is, from the stay's state: one rule per kind, in one place. */
async function kindOf({ db, tenant, change }: Ctx & { change: StayChange }) {
  const { reservation: r } = await loadReservation(db, tenant, change.reservation_id);
  if ("check_out" in change) return { r, kind: r.status === "checked_in" ? ("departure" as const) : ("dates" as const) };
  if ("room_id" in change) {
    if (r.status === "confirmed") {
      throw new ApiError("invalid_state_transition", "A confirmed stay gets its room at check-in; drag it to another room type's row to change its type.");
    }
    return { r, kind: "room" as const };
  }
  if (r.status !== "confirmed") {
    throw new ApiError("invalid_state_transition", "Only a confirmed stay changes room type; a guest in house moves to another room of the same type.");
  }
  return { r, kind: "room_type" as const };
}

/**
 * What a change on the chart would do, without keeping it: the stay's nights, rates' total and
 * price (net, tax and gross, as the folio charges them) before and after, the fee an early
 * departure posts (with its taxes), and the difference the guest pays (negative: less), in gross.
 * The change itself runs (and is rolled back), so the preview refuses exactly what saving would
 * and prices exactly as saving would.
 */
export async function previewStayChange({ db, tenant, change }: Ctx & { change: StayChange }) {
  const { r, kind } = await kindOf({ db, tenant, change });
  const before = { total: r.totalAmount, price: reservationPrice(r), nights: r.nightly.length, check_out: r.checkOut, room_type_id: r.roomTypeId, room_id: r.roomId };
  let after: typeof before;
  let fee = 0;
  if (kind === "departure") {
    const p = await previewDeparture({ db, tenant, id: r.id, checkOut: (change as { check_out: string }).check_out });
    after = { ...before, total: p.total.amount, price: p.price, nights: p.nights, check_out: p.check_out };
    fee = p.fee.amount;
  } else if (kind === "room") {
    const moved = await rolledBack(db, (tx) => moveRoom({ db: tx, tenant, actor: null, id: r.id, roomId: (change as { room_id: string }).room_id }));
    after = { ...before, room_id: moved.reservation.roomId };
  } else {
    const input = kind === "dates" ? { check_out: (change as { check_out: string }).check_out } : { room_type_id: (change as { room_type_id: string }).room_type_id };
    const { reservation: u } = await previewReservationUpdate({ db, tenant, id: r.id, input });
    after = { ...before, total: u.totalAmount, price: reservationPrice(u), nights: u.nightly.length, check_out: u.checkOut, room_type_id: u.roomTypeId };
  }
  const money = (amount: number): Money => ({ amount, currency: r.currency });
  return {
    reservation_id: r.id,
    kind,
    before: { ...before, total: money(before.total) },
    after: { ...after, total: money(after.total) },
    fee: money(fee),
    difference: money(after.price.gross.amount + fee - before.price.gross.amount),
  };
}

export type StayChangePreview = Awaited<ReturnType<typeof previewStayChange>>;

/** Saves a change from the chart through the service its kind names (room move, departure, modification), which puts it on the trail. */
export async function applyStayChange({ db, tenant, actor, change }: ChangeCtx & { change: StayChange }) {
  const { r, kind } = await kindOf({ db, tenant, change });
  if (kind === "room") return { kind, result: await moveRoom({ db, tenant, actor, id: r.id, roomId: (change as { room_id: string }).room_id }) };
  if (kind === "departure") return { kind, result: await changeDeparture({ db, tenant, actor, id: r.id, checkOut: (change as { check_out: string }).check_out }) };
  const input = kind === "dates" ? { check_out: (change as { check_out: string }).check_out } : { room_type_id: (change as { room_type_id: string }).room_type_id };
  return { kind, result: await updateReservation({ db, tenant, actor, id: r.id, input }) };
}

