import { eq } from "drizzle-orm";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import type { Tx } from "@/db/client";
import { properties, ratePlans, reservations, roomTypes, type NightlyRate } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { ApiError } from "@/server/errors";
import { emitEvents } from "@/server/events/emit";
import { chargedStayPrice, folioBalance, postRoomNights, priceColumns, removeRoomNights } from "@/server/folios/folios";
import { presentInventoryRange } from "@/server/inventory/events";
import { releaseNights, sellNights } from "@/server/inventory/nights";
import { businessToday } from "@/server/properties/business-date";
import { asNightRate, loadRates } from "@/server/rates/daily-rates";
import { findOwned, type Ctx, type Tenant } from "@/server/tenancy";
import { inTransaction, rolledBack } from "@/db/transactions";
import { changeRoom } from "./in-house";
import { presentReservation } from "./present";
import { takeReadyRoom } from "./ready-rooms";
import { loadReservation } from "./reservations";
import type { ReservationUpgrade } from "./schemas";

const sum = (nights: NightlyRate[]) => nights.reduce((s, n) => s + n.amount, 0);

/**
 * Moves a stay's remaining nights (all of a confirmed stay's; a stay in house's from the property's
 * today on) to another room type of the property. `charge: "difference"` re-prices those nights at
 * the rate plan's rates for the new type, as a booking would be (a rate, no stop-sell); `"none"` is
 * complimentary: the nights keep their price and the folio says so. Either way the old type's
 * nights go back on sale and the new type's are sold (409 `no_availability` when it is full); a
 * guest in house moves to a ready room of the new type. One transaction: `reservation.updated`,
 * `inventory.updated` for both types (and the rooms' housekeeping events), or nothing.
 */
export async function upgradeReservation({ db, tenant, actor, id, input }: ChangeCtx & { id: string; input: ReservationUpgrade }) {
  return inTransaction(db, async (tx) => {
    const { current, changes, events } = await applyUpgrade(tx, tenant, id, input);
    const [reservation] = await tx.update(reservations).set(changes).where(eq(reservations.id, current.reservation.id)).returning();
    const result = { reservation, guest: current.guest };
    const after = presentReservation(result);
    await recordChange(tx, { tenant, actor }, [{ type: "reservation.updated", propertyId: reservation.propertyId, object: after }, ...events], {
      action: "reservation.upgraded",
      objectType: "reservation",
      objectId: reservation.id,
      before: presentReservation(current),
      after,
    });
    return result;
  });
}

/**
 * What an upgrade would give, without keeping it: the new total, the difference and the folio's
 * balance after it, for the front desk to confirm. The same rules as the upgrade (it runs, then
 * rolls back), so it refuses exactly what the upgrade would refuse.
 */
export const previewUpgrade = ({ db, tenant, id, input }: Ctx & { id: string; input: ReservationUpgrade }) =>
  rolledBack(db, async (tx) => {
    const { current, changes, difference, nights } = await applyUpgrade(tx, tenant, id, input);
    const r = current.reservation;
    return {
      total_before: { amount: r.totalAmount, currency: r.currency },
      total: { amount: changes.totalAmount!, currency: r.currency },
      difference: { amount: difference, currency: r.currency },
      nights,
      balance: { amount: await folioBalance(tx, r.folioId), currency: r.currency },
    };
  });

async function applyUpgrade(tx: Tx, tenant: Tenant, id: string, input: ReservationUpgrade) {
  const current = await loadReservation(tx, tenant, id, true);
  const r = current.reservation;
  if (r.status !== "confirmed" && r.status !== "checked_in") {
    throw new ApiError("invalid_state_transition", `A ${r.status.replace("_", "-")} reservation cannot be upgraded.`);
  }
  if (input.room_id && r.status !== "checked_in") {
    throw new ApiError("parameter_invalid", "room_id is for a guest in house; a confirmed stay gets its room at check-in.", { param: "room_id" });
  }
  const [[property], [plan], [fromType]] = await Promise.all([
    tx.select().from(properties).where(eq(properties.id, r.propertyId)),
    tx.select().from(ratePlans).where(eq(ratePlans.id, r.ratePlanId)),
    tx.select().from(roomTypes).where(eq(roomTypes.id, r.roomTypeId)),
  ]);
  const target = await findOwned(tx, roomTypes, tenant, input.room_type_id, "room_type", { param: "room_type_id" });
  if (target.propertyId !== r.propertyId) throw new ApiError("parameter_invalid", `Room type '${target.id}' belongs to another property.`, { param: "room_type_id" });
  if (target.id === r.roomTypeId) throw new ApiError("parameter_invalid", `The stay is already in room type ${target.code}.`, { param: "room_type_id" });
  if (r.adults + r.children > target.maxOccupancy) {
    throw new ApiError("parameter_invalid", `Room type ${target.code} sleeps at most ${target.maxOccupancy} guests.`, { param: "room_type_id" });
  }
  const today = businessToday(property);
  // A stay in house keeps the nights already slept where they were; tonight and after move.
  const from = r.status === "checked_in" && today > r.checkIn ? today : r.checkIn;
  if (from >= r.checkOut) throw new ApiError("invalid_state_transition", "No night of the stay is left to upgrade; the guest leaves today.");
  // The nights slept stay sold in the type they were slept in (the inventory keeps them there),
  // and the reports by room type read them there too.
  const kept = r.nightly.filter((n) => n.date < from).map((n) => ({ ...n, room_type_id: n.room_type_id ?? r.roomTypeId }));
  const moving = r.nightly.filter((n) => n.date >= from);
  let moved: NightlyRate[];
  if (input.charge === "difference") {
    if (!plan.roomTypeIds.includes(target.id)) {
      throw new ApiError("parameter_invalid", `Rate plan ${plan.code} does not cover room type ${target.code}; upgrade it without a charge.`, { param: "room_type_id" });
    }
    const rates = await loadRates(tx, plan.id, [target.id], from, addDays(r.checkOut, 1));
    moved = moving.map(({ date }) => {
      const rate = asNightRate(rates.get(`${target.id}:${date}`));
      if (!rate) throw new ApiError("restriction_violated", `No rate of ${target.code} is loaded for the night of ${date}.`, { param: "room_type_id" });
      if (rate.stopSell) throw new ApiError("restriction_violated", `Sales of ${target.code} are stopped for the night of ${date}.`, { param: "room_type_id" });
      return { date, amount: rate.amount };
    });
  } else {
    moved = moving;
  }
  await releaseNights(tx, r.roomTypeId, from, r.checkOut);
  await sellNights(tx, target.id, from, r.checkOut);
  await removeRoomNights(tx, r, from);
  const how = input.charge === "none" ? "complimentary upgrade" : "upgraded";
  await postRoomNights(tx, tenant, r, moved, `${target.name} (${how} from ${fromType.name}), ${plan.name}`);
  const nightly = [...kept, ...moved];
  const changes: Partial<typeof reservations.$inferInsert> = { roomTypeId: target.id, nightly, totalAmount: sum(nightly), ...priceColumns(await chargedStayPrice(tx, r)), updatedAt: new Date() };
  const events: Parameters<typeof emitEvents>[2] = [r.roomTypeId, target.id].map((roomTypeId) => ({
    type: "inventory.updated" as const,
    propertyId: r.propertyId,
    object: presentInventoryRange({ propertyId: r.propertyId, roomTypeId, from, to: r.checkOut }),
  }));
  if (r.status === "checked_in") {
    const room = await takeReadyRoom(tx, tenant, target.id, input.room_id);
    events.push(...(await changeRoom(tx, tenant, r, room.id, `Upgrade to ${target.name}`)));
    changes.roomId = room.id;
  }
  return { current, changes, events, difference: sum(nightly) - r.totalAmount, nights: moved.length };
}
