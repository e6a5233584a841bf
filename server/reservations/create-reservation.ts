import type { Executor, Tx } from "@/db/client";
import { properties, reservations, type CardGuarantee, type folios, type NightlyRate, type ratePlans } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { queueGuestMail } from "@/server/guest-mail/guest-mail";
import { openFolio, postRoomNights, priceColumns, taxRulesOf } from "@/server/folios/folios";
import { guestCreatedRecord, insertGuestIfNew } from "@/server/guests/guests";
import { newId } from "@/server/ids";
import { insertRows } from "@/db/prepared";
import { presentInventoryRange } from "@/server/inventory/events";
import { countNights, sellNights } from "@/server/inventory/nights";
import { findOwned, tenantValues, type Tenant } from "@/server/tenancy";
import { sideBySide } from "@/server/side-by-side";
import { feeAmount } from "@/server/rates/fees";
import { saveGuarantee } from "./guarantee";
import { presentReservation } from "./present";
import { checkAndQuote } from "./reservations";
import type { ReservationCreate } from "./schemas";

type Folio = typeof folios.$inferSelect;

/**
 * A booking without the guest's e-mail is a walk-in at a property that allows it; anything else
 * is refused as a missing parameter, before any other check of the stay (docs/decisions.md).
 */
async function assertEmailOptional(db: Executor, tenant: Tenant, input: ReservationCreate) {
  const property = await findOwned(db, properties, tenant, input.property_id, "property", { param: "property_id" });
  if (input.source !== "walk_in") {
    throw new ApiError("parameter_missing", "guest.email is required; only a walk-in (source 'walk_in') may come without one, where the property allows it.", {
      param: "guest.email",
    });
  }
  if (!property.walkInsWithoutEmail) {
    throw new ApiError("parameter_missing", `guest.email is required: property '${property.id}' does not allow walk-ins without an e-mail.`, { param: "guest.email" });
  }
}

/** The checks of a booking made before its transaction: the channel, and the e-mail a walk-in may omit. */
export async function assertBookable(db: Executor, tenant: Tenant, input: ReservationCreate) {
  if (input.source === "channel" && !input.channel) {
    throw new ApiError("parameter_missing", "A channel is required when source is 'channel'.", { param: "channel" });
  }
  if (input.source !== "channel" && input.channel) {
    throw new ApiError("parameter_invalid", "channel must be null unless source is 'channel'.", { param: "channel" });
  }
  if (!input.guest.email) await assertEmailOptional(db, tenant, input);
}

/** The card on file a booking brings, saved first: a card the bank refuses books nothing. */
export const guaranteeOf = (db: Executor, tenant: Tenant, input: ReservationCreate, requestKey: string | undefined) =>
  input.guarantee
    ? saveGuarantee(db, tenant, {
        propertyId: input.property_id,
        paymentMethod: input.guarantee.processor_payment_method,
        requestKey,
        param: "guarantee.processor_payment_method",
      })
    : Promise.resolve(null);

/** The stay a booking asks for, as the checks and the quote read it. */
export const stayOf = (input: ReservationCreate) => ({
  propertyId: input.property_id,
  roomTypeId: input.room_type_id,
  ratePlanId: input.rate_plan_id,
  checkIn: input.check_in,
  checkOut: input.check_out,
  adults: input.adults,
  children: input.children,
});

/** What the rate plan asks as a deposit at booking on the nights quoted (null: none). */
export const depositOf = (plan: typeof ratePlans.$inferSelect, nightly: NightlyRate[]) => {
  const amount = feeAmount(plan.deposit, nightly);
  return amount > 0 ? amount : null;
};

/**
 * One stay booked inside the caller's transaction (a reservation, or one room of a group), on
 * the trail by `actor`: with `group.folio`, its charges go to that folio (a group's master)
 * instead of a new one of its own.
 */
export async function bookStay(
  tx: Tx,
  { tenant, actor }: Pick<ChangeCtx, "tenant" | "actor">,
  input: ReservationCreate,
  group?: { id: string; folio?: Folio; createdAt: Date },
  guarantee: CardGuarantee | null = null,
  /** The reservation's id, when made before the transaction (a deposit's authorization names it). */
  reservationId?: string,
  /** A booking made on the booking engine: the guest's language (their e-mails speak it) and the link where they manage it, which the confirmation carries. */
  direct?: { guestLocale: string; manageUrl: string },
) {
  const stay = stayOf(input);
  const checked = checkAndQuote(tx, tenant, stay);
  // Sent behind the checks, in their round trip: a count of rows, and used only once they pass.
  const counted = countNights(tx, [stay.roomTypeId], stay.checkIn, stay.checkOut);
  counted.catch(() => {}); // Awaited by the sale; a failed check must not leave it unhandled.
  // The property's taxes too, for the folio's lines: used only once the checks have passed.
  const taxRules = taxRulesOf(tx, stay.propertyId);
  taxRules.catch(() => {});
  const { property, roomType, plan, quote } = await checked;
  const id = reservationId ?? newId("reservation");
  await sellNights(tx, roomType.id, stay.checkIn, stay.checkOut, 1, counted);
  // Once the nights are locked, the guest, the folio and its charges go out together: one round
  // trip. Not sooner: a booking must hold its nights before it may wait on another booking's
  // uncommitted guest of the same e-mail, or each could hold what the other waits for. The
  // folio's id is made here, so its charges need not wait for its row to come back.
  const folioId = group?.folio?.id ?? newId("folio");
  const [guestWritten, folioOpened, nightsPosted] = await sideBySide([
    insertGuestIfNew(tx, { tenant, actor }, input.guest, { recordLater: true }),
    group?.folio ? Promise.resolve(group.folio) : openFolio(tx, tenant, { id: folioId, propertyId: property.id, reservationId: id, currency: property.currency }),
    postRoomNights(tx, tenant, { folioId, id, propertyId: property.id, adults: stay.adults, children: stay.children }, quote.nightly, `${roomType.name}, ${plan.name}`, taxRules),
  ]);
  const { guest, created: guestCreated } = guestWritten();
  // The folio's failure first: its charges then fail only because the transaction did.
  const folio = folioOpened();
  const price = nightsPosted();
  const [reservation] = await insertRows<(typeof reservations.$inferSelect)[]>(
    tx,
    "reservation_insert",
    reservations,
    [
      {
        id,
        ...tenantValues(tenant),
        propertyId: property.id,
        guestId: guest.id,
        roomTypeId: roomType.id,
        ratePlanId: plan.id,
        folioId: folio.id,
        groupId: group?.id ?? null,
        status: "confirmed",
        checkIn: stay.checkIn,
        checkOut: stay.checkOut,
        adults: stay.adults,
        children: stay.children,
        totalAmount: quote.total,
        ...priceColumns(price),
        currency: property.currency,
        nightly: quote.nightly,
        source: input.source,
        channel: input.channel ?? null,
        notes: input.notes ?? null,
        guestLocale: direct?.guestLocale ?? null,
        metadata: input.metadata ?? {},
        guarantee,
        // A group's rooms are paid on its master folio: the plan's deposit is asked of single bookings.
        depositAmount: group ? null : depositOf(plan, quote.nightly),
        // A group's rooms are listed in the order asked for, whatever order they were sold in.
        ...(group && { createdAt: group.createdAt, updatedAt: group.createdAt }),
      },
    ],
    { returning: true },
  );
  const result = { reservation, guest };
  const presented = presentReservation(result);
  // The events, the trail and the guest's confirmation go out together (one round trip); the
  // confirmation is composed from the rows just written and read, with nothing read again. A new
  // guest's event and entry go first in the same two INSERTs, in the order they happened.
  const guestRecord = guestCreated ? guestCreatedRecord(guest) : undefined;
  const [recorded, mailed] = await sideBySide([
    recordChange(
      tx,
      { tenant, actor },
      [
        ...(guestRecord?.events ?? []),
        { type: "reservation.created", propertyId: property.id, object: presented },
        {
          type: "inventory.updated",
          propertyId: property.id,
          object: presentInventoryRange({ propertyId: property.id, roomTypeId: roomType.id, from: stay.checkIn, to: stay.checkOut }),
        },
      ],
      [...(guestRecord ? [guestRecord.entry] : []), { action: "reservation.created", objectType: "reservation", objectId: id, after: presented }],
    ),
    queueGuestMail(tx, tenant, "confirmation", { reservation, guest, property, roomType, plan, manageUrl: direct?.manageUrl }),
  ]);
  recorded();
  mailed();
  return { ...result, folio };
}
