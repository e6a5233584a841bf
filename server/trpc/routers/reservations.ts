import { z } from "zod";
import { guestMailKinds } from "@/db/schema";
import { getRegistrationCard, listReservationMail, previewGuestMail } from "@/server/guest-mail/guest-mail";
import { mailServerSet } from "@/server/webhooks/mail-settings";
import { webhookSettings } from "@/server/webhooks/settings";
import { presentGuestMail } from "@/server/guest-mail/present";
import { getAvailability } from "@/server/inventory/availability";
import { availabilityQuery } from "@/server/inventory/schemas";
import { presentRatePlan } from "@/server/rates/present";
import { listRatePlans } from "@/server/rates/rate-plans";
import { createBooking } from "@/server/bookings/book";
import { getDeskDay } from "@/server/reservations/desk-day";
import { changeDeparture, previewDeparture } from "@/server/reservations/change-departure";
import { getReservationDesk } from "@/server/reservations/desk-view";
import { folioBalance } from "@/server/folios/folios";
import type { ChangeCtx } from "@/server/audit/audit";
import { grantLateCheckOut, moveRoom } from "@/server/reservations/in-house";
import { presentReservation } from "@/server/reservations/present";
import { guaranteeReservation, refreshGuarantee } from "@/server/reservations/guarantee";
import { listReadyRooms } from "@/server/reservations/ready-rooms";
import { loadReservation } from "@/server/reservations/reservations";
import {
  cancelSchema,
  changeDepartureSchema,
  guaranteeUpdateSchema,
  lateCheckOutSchema,
  checkInSchema,
  moveRoomSchema,
  reservationCreateSchema,
  reservationUpdateSchema,
  upgradeSchema,
} from "@/server/reservations/schemas";
import { previewUpgrade, upgradeReservation } from "@/server/reservations/upgrade";
import { presentReservationRow, reservationSearchQuery, searchReservations } from "@/server/reservations/search-reservations";
import { cancelReservation, checkInReservation, checkOutReservation, noShowReservation } from "@/server/reservations/transitions";
import { previewReservationUpdate, updateReservation } from "@/server/reservations/update-reservation";
import { presentRoom, presentRoomType } from "@/server/rooms/present";
import { listRoomTypes } from "@/server/rooms/room-types";
import { access } from "@/lib/access";
import { rolledBack } from "@/db/transactions";
import { roles, router, staffProcedure } from "../init";
import { cursorList, listInput } from "../pagination";

// The same schemas and services as /v1/reservations and /v1/availability: tRPC adds transport,
// not rules (the services write the audit trail, by the signed-in staff member).
/** The availability query with numbers as numbers: /v1 reads them from a query string, tRPC gets JSON. */
const quoteInput = availabilityQuery.extend({ adults: z.number().int().min(1).max(20), children: z.number().int().min(0).max(20).default(0) });
const reservationProcedure = staffProcedure.use(roles(...access.reservations));
const id = z.string().min(1).max(64);
const all = { limit: 100, cursor: null };

/**
 * What granting a late check-out now would post: the service's own run, rolled back. The fee line
 * (the rate plan's late check-out fee, with the taxes on other charges; 0: the plan has none) and
 * the folio's balance after it, or the service's refusal (another day, granted already).
 */
const previewLateCheckOut = ({ db, tenant, actor, id }: ChangeCtx & { id: string }) =>
  rolledBack(db, async (tx) => {
    const { reservation: r } = await loadReservation(tx, tenant, id);
    const before = await folioBalance(tx, r.folioId);
    await grantLateCheckOut({ db: tx, tenant, actor, id });
    const after = await folioBalance(tx, r.folioId);
    return { fee: { amount: after - before, currency: r.currency }, balance: { amount: after, currency: r.currency } };
  });

export const reservationsRouter = router({
  /** The room types and rate plans of a property, for names, filters and the booking form. */
  lookups: reservationProcedure.input(z.strictObject({ property_id: id })).query(async ({ ctx, input }) => {
    const filters = { property_id: input.property_id };
    const [types, plans] = await Promise.all([
      listRoomTypes({ db: ctx.db, tenant: ctx.tenant, filters, page: all }),
      listRatePlans({ db: ctx.db, tenant: ctx.tenant, filters, page: all }),
    ]);
    return { room_types: types.data.map(presentRoomType), rate_plans: plans.data.map(presentRatePlan) };
  }),
  /** Search (guest name or e-mail, reservation id), filters and today's lists, cursor-paged. */
  search: reservationProcedure
    .input(z.strictObject({ ...reservationSearchQuery.shape, ...listInput }))
    .query(async ({ ctx, input: { limit, cursor, ...query } }) => {
      const list = cursorList("reservations.search", query, { limit, cursor });
      const { today, page } = await searchReservations({ db: ctx.db, tenant: ctx.tenant, query, page: list.page });
      return { today, ...list.envelope(page, presentReservationRow) };
    }),
  /** The front desk's day: counts of arrivals, in-house and departures, occupancy tonight, rooms not ready for arrivals. */
  deskDay: reservationProcedure
    .input(z.strictObject({ property_id: id }))
    .query(({ ctx, input }) => getDeskDay({ db: ctx.db, tenant: ctx.tenant, propertyId: input.property_id })),
  /** One reservation with its names, the property's today, its policy and the actions its state allows. */
  get: reservationProcedure.input(z.strictObject({ id })).query(({ ctx, input }) => getReservationDesk({ db: ctx.db, tenant: ctx.tenant, id: input.id })),
  /** Every room type × rate plan for a stay, priced, with why an unbookable one is not bookable (as GET /v1/availability). */
  quote: reservationProcedure.input(quoteInput).query(({ ctx, input }) => getAvailability({ db: ctx.db, tenant: ctx.tenant, query: input })),
  /** Free clean or inspected rooms of the reservation's type, in the order check-in would choose them. */
  readyRooms: reservationProcedure
    .input(z.strictObject({ id }))
    .query(async ({ ctx, input }) => (await listReadyRooms({ db: ctx.db, tenant: ctx.tenant, reservationId: input.id })).map(presentRoom)),
  create: reservationProcedure
    .input(reservationCreateSchema)
    .mutation(async ({ ctx, input }) => presentReservation(await createBooking({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input }))),
  /** The modification re-quoted, without keeping it: what "confirm" would give, or why it would be refused. */
  previewUpdate: reservationProcedure
    .input(reservationUpdateSchema.extend({ id }))
    .query(async ({ ctx, input: { id, ...body } }) =>
      presentReservation(await previewReservationUpdate({ db: ctx.db, tenant: ctx.tenant, id, input: body })),
    ),
  update: reservationProcedure
    .input(reservationUpdateSchema.extend({ id }))
    .mutation(async ({ ctx, input: { id, ...body } }) =>
      presentReservation(await updateReservation({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, input: body })),
    ),
  cancel: reservationProcedure
    .input(cancelSchema.extend({ id }))
    .mutation(async ({ ctx, input }) =>
      presentReservation(await cancelReservation({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, reason: input.reason })),
    ),
  checkIn: reservationProcedure
    .input(checkInSchema.extend({ id }))
    .mutation(async ({ ctx, input }) =>
      presentReservation(await checkInReservation({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, roomId: input.room_id })),
    ),
  /** Puts a card on file (Stripe's `pm_…` from the Payment Element): POST /v1/reservations/{id}/guarantee. */
  guarantee: reservationProcedure
    .input(guaranteeUpdateSchema.extend({ id }))
    .mutation(async ({ ctx, input }) =>
      presentReservation(await guaranteeReservation({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, paymentMethod: input.processor_payment_method })),
    ),
  /**
   * After the desk's browser completed the guest's 3-D Secure for the card on file: the card
   * settled to what Stripe holds now, as Stripe's event would; with the setup's outcome in words.
   */
  refreshGuarantee: reservationProcedure.input(z.strictObject({ id })).mutation(async ({ ctx, input }) => {
    const { result, setup } = await refreshGuarantee({ db: ctx.db, tenant: ctx.tenant, id: input.id });
    return { reservation: presentReservation(result), setup: setup ? { status: setup.status, message: setup.decline?.message ?? null } : null };
  }),
  checkOut: reservationProcedure
    .input(z.strictObject({ id }))
    .mutation(async ({ ctx, input }) =>
      presentReservation(await checkOutReservation({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id })),
    ),
  /** What a departure (a date, or a check-out now) would give the stay in house: end, nights, total, fee, balance after. */
  previewDeparture: reservationProcedure
    .input(changeDepartureSchema.partial().extend({ id }))
    .query(({ ctx, input }) => previewDeparture({ db: ctx.db, tenant: ctx.tenant, id: input.id, checkOut: input.check_out })),
  changeDeparture: reservationProcedure
    .input(changeDepartureSchema.extend({ id }))
    .mutation(async ({ ctx, input }) =>
      presentReservation(await changeDeparture({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, checkOut: input.check_out })),
    ),
  moveRoom: reservationProcedure
    .input(moveRoomSchema.extend({ id }))
    .mutation(async ({ ctx, input }) =>
      presentReservation(
        await moveRoom({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, roomId: input.room_id, reason: input.reason }),
      ),
    ),
  /** What a late check-out would post now (the fee, the balance after it), or why it is refused. */
  previewLateCheckOut: reservationProcedure
    .input(z.strictObject({ id }))
    .query(({ ctx, input }) => previewLateCheckOut({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id })),
  /** POST /v1/reservations/{id}/late_check_out: the plan's late check-out fee on the folio, once, on the departure day. */
  lateCheckOut: reservationProcedure
    .input(lateCheckOutSchema.extend({ id }))
    .mutation(async ({ ctx, input }) =>
      presentReservation(await grantLateCheckOut({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, until: input.until })),
    ),
  noShow: reservationProcedure
    .input(z.strictObject({ id }))
    .mutation(async ({ ctx, input }) =>
      presentReservation(await noShowReservation({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id })),
    ),
  /** The registration card printed at check-in. */
  registrationCard: reservationProcedure
    .input(z.strictObject({ id }))
    .query(({ ctx, input }) => getRegistrationCard({ db: ctx.db, tenant: ctx.tenant, id: input.id })),
  /** The guest e-mails: what one of them would say now (the same composition as the mail queued), and those queued or sent. */
  mail: router({
    preview: reservationProcedure
      .input(z.strictObject({ id, kind: z.enum(guestMailKinds) }))
      .query(({ ctx, input }) => previewGuestMail({ db: ctx.db, tenant: ctx.tenant, id: input.id, kind: input.kind })),
    list: reservationProcedure
      .input(z.strictObject({ id }))
      .query(async ({ ctx, input }) => {
        // Queued mail with no mail server configured is held, as the outbox says: it cannot go.
        const held = !(await mailServerSet(ctx.db, ctx.tenant.accountId, webhookSettings().smtpUrl));
        return (await listReservationMail({ db: ctx.db, tenant: ctx.tenant, id: input.id })).map((m) => {
          const mail = presentGuestMail(m);
          return { ...mail, held: held && mail.status === "pending" };
        });
      }),
  }),
  /** What an upgrade would cost (the new total, the difference), before the clerk confirms it. */
  previewUpgrade: reservationProcedure
    .input(upgradeSchema.extend({ id }))
    .query(({ ctx, input: { id, ...input } }) => previewUpgrade({ db: ctx.db, tenant: ctx.tenant, id, input })),
  upgrade: reservationProcedure
    .input(upgradeSchema.extend({ id }))
    .mutation(async ({ ctx, input: { id, ...input } }) =>
      presentReservation(await upgradeReservation({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, input })),
    ),
});
