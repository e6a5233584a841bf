import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { ratePlans, reservations, roomTypes, type NightlyRate } from "@/db/schema";
import { addDays, daysBetween, nightsOf, type IsoDate } from "@/lib/dates";
import { ApiError } from "@/server/errors";
import type { emitEvents } from "@/server/events/emit";
import { chargedStayPrice, hasCharge, postOtherCharge, postRoomNights, priceColumns, removeRoomNights, type ChargedStay } from "@/server/folios/folios";
import { presentInventoryRange } from "@/server/inventory/events";
import { releaseNights, sellNights } from "@/server/inventory/nights";
import { maxNights } from "@/server/inventory/stay-rules";
import { asNightRate, loadRates } from "@/server/rates/daily-rates";
import { feeAmount, feeLabels, type FeeKind } from "@/server/rates/fees";
import type { Tenant } from "@/server/tenancy";

type Reservation = typeof reservations.$inferSelect;
type Events = Parameters<typeof emitEvents>[2];
export type StayEndChange = { changes: Partial<typeof reservations.$inferInsert>; events: Events; fee: number };

/** The earliest a stay in house can end: today, and never before the arrival night is over. */
export const earliestDeparture = (r: Pick<Reservation, "checkIn">, today: IsoDate): IsoDate => {
  const afterArrival = addDays(r.checkIn, 1);
  return today > afterArrival ? today : afterArrival;
};

/** Posts one fee line on the folio (none when it comes to 0), taxed as other charges; the amount posted (gross). */
export async function postFee(tx: Executor, tenant: Tenant, stay: ChargedStay & { propertyId: string }, kind: FeeKind, amount: number, detail: string, date: IsoDate | null) {
  if (amount <= 0) return 0;
  const line = await postOtherCharge(tx, tenant, { id: stay.folioId, propertyId: stay.propertyId }, { kind, description: `${feeLabels[kind]}, ${detail}`, date, price: amount, reservationId: stay.id });
  return line.amount;
}

/**
 * Moves the end of a stay in house to `checkOut`, so that the reservation, the folio, the
 * inventory and (through the sales trigger) every report tell the same story:
 * - earlier (an early departure): the nights from `checkOut` on go back on sale, their room
 *   charges leave the folio, and the rate plan's early-departure fee is posted as its own line
 *   (once per stay: a second shortening adds none);
 * - later (an extension, or a guest who stayed on): the new nights are priced at the plan's rates,
 *   must have a rate, not be stop-sell, and the new departure not be closed to departure, and are
 *   sold like a booking's (409 `no_availability` when the type is full); their charges are posted.
 * Returns the reservation's changes for the caller to write with its own.
 */
export async function moveStayEnd(
  tx: Executor,
  tenant: Tenant,
  r: Reservation,
  checkOut: IsoDate,
  param = "check_out",
  /** The night audit selling a night to a guest who stayed on: sales restrictions do not apply to a guest in the room, and a night without a rate is priced as the stay's last. */
  overstay = false,
): Promise<StayEndChange> {
  if (checkOut === r.checkOut) return { changes: {}, events: [], fee: 0 };
  const [[plan], [roomType]] = await Promise.all([
    tx.select().from(ratePlans).where(eq(ratePlans.id, r.ratePlanId)),
    tx.select().from(roomTypes).where(eq(roomTypes.id, r.roomTypeId)),
  ]);
  const range = (from: IsoDate, to: IsoDate) => ({
    type: "inventory.updated" as const,
    propertyId: r.propertyId,
    object: presentInventoryRange({ propertyId: r.propertyId, roomTypeId: r.roomTypeId, from, to }),
  });
  if (checkOut < r.checkOut) {
    const released = r.nightly.filter((n) => n.date >= checkOut);
    const kept = r.nightly.filter((n) => n.date < checkOut);
    await releaseNights(tx, r.roomTypeId, checkOut, r.checkOut);
    await removeRoomNights(tx, r, checkOut);
    const fee = (await hasCharge(tx, r, "early_departure_fee")) ? 0 : await postFee(tx, tenant, r, "early_departure_fee", feeAmount(plan.earlyDepartureFee, released), `left ${checkOut}, booked until ${r.checkOut}`, checkOut);
    return {
      changes: { checkOut, nightly: kept, totalAmount: sum(kept), ...priceColumns(await chargedStayPrice(tx, r)) },
      events: [range(checkOut, r.checkOut)],
      fee,
    };
  }
  if (daysBetween(r.checkOut, checkOut) > maxNights) {
    throw new ApiError("parameter_invalid", `A stay can be extended by at most ${maxNights} nights at a time.`, { param });
  }
  const rates = await loadRates(tx, plan.id, [r.roomTypeId], r.checkOut, addDays(checkOut, 1));
  const added: NightlyRate[] = [];
  for (const date of nightsOf(r.checkOut, checkOut)) {
    const rate = asNightRate(rates.get(`${r.roomTypeId}:${date}`));
    if (overstay) {
      added.push({ date, amount: rate?.amount ?? (added.at(-1) ?? r.nightly.at(-1))!.amount });
      continue;
    }
    if (!rate) throw new ApiError("restriction_violated", `No rate is loaded for the night of ${date}.`);
    if (rate.stopSell) throw new ApiError("restriction_violated", `Sales are stopped for the night of ${date}.`);
    added.push({ date, amount: rate.amount });
  }
  if (!overstay && asNightRate(rates.get(`${r.roomTypeId}:${checkOut}`))?.closedToDeparture) {
    throw new ApiError("restriction_violated", `Departure on ${checkOut} is closed.`, { param });
  }
  await sellNights(tx, r.roomTypeId, r.checkOut, checkOut);
  await postRoomNights(tx, tenant, r, added, `${roomType.name}, ${plan.name}`);
  const nightly = [...r.nightly, ...added];
  return { changes: { checkOut, nightly, totalAmount: sum(nightly), ...priceColumns(await chargedStayPrice(tx, r)) }, events: [range(r.checkOut, checkOut)], fee: 0 };
}

const sum = (nights: NightlyRate[]) => nights.reduce((s, n) => s + n.amount, 0);
