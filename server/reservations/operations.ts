import { chargeFolio } from "@/server/invoices/folio-actions";
import { chargeCreateSchema, chargeSchema, folioSchema, getReservationFolio } from "@/server/folios/folios";
import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { idParam } from "@/server/schemas";
import { guaranteeReservation } from "./guarantee";
import { cardErrorCodes } from "@/server/errors";
import { presentReservation, presentRoomMove } from "./present";
import { getReservation, listReservations } from "./reservations";
import { changeDeparture } from "./change-departure";
import { grantLateCheckOut, listRoomMoves, moveRoom } from "./in-house";
import {
  cancelSchema,
  changeDepartureSchema,
  moveRoomSchema,
  roomMoveSchema,
  checkInSchema,
  emptyActionSchema,
  lateCheckOutSchema,
  guaranteeUpdateSchema,
  reservationListQuery,
  reservationSchema,
  reservationUpdateSchema,
  upgradeSchema,
} from "./schemas";
import { upgradeReservation } from "./upgrade";
import { cancelReservation, checkInReservation, checkOutReservation, noShowReservation } from "./transitions";
import { updateReservation } from "./update-reservation";

const tag = "Reservations";
const params = idParam("res");

export const reservationOperations = [
  // GET /v1/reservations: reservations, newest first, with filters
  defineOperation({
    method: "get", path: "/reservations", operationId: "listReservations", summary: "List reservations", tag, scope: "reservations:read",
    query: reservationListQuery, list: true, response: listSchema(reservationSchema, "ReservationList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listReservations({ ...ctx, filters: query, page: list.page }), presentReservation),
  }),
  // GET /v1/reservations/{id}: retrieve a reservation
  defineOperation({
    method: "get", path: "/reservations/{id}", operationId: "getReservation", summary: "Retrieve a reservation", tag, scope: "reservations:read",
    params, response: reservationSchema,
    handler: async ({ ctx, params }) => presentReservation(await getReservation({ ...ctx, id: params.id })),
  }),
  // POST /v1/reservations/{id}/guarantee: put a card on file for the stay
  defineOperation({
    method: "post", path: "/reservations/{id}/guarantee", operationId: "guaranteeReservation", summary: "Put a card on file", tag, scope: "reservations:write",
    description:
      "Requires scope `reservations:write`. Saves the card (Stripe's `pm_…`, from Stripe.js) at the property's Stripe account as the stay's guarantee, replacing any card before it: charged later without the guest (`payment_method: {type: \"card_on_file\"}` on POST /payments, the night audit's no-show fee). A confirmed or in-house stay only (409). A card the bank refuses answers 402 and changes nothing; one that needs the guest's authentication is kept with `status: requires_action` and a `next_action`.",
    params, body: guaranteeUpdateSchema, response: reservationSchema,
    errors: ["invalid_state_transition", "service_unavailable", ...cardErrorCodes], declinesRecordNoPayment: true,
    handler: async ({ ctx, params, body, c }) =>
      presentReservation(await guaranteeReservation({ ...ctx, id: params.id, paymentMethod: body.processor_payment_method, requestKey: c.req.header("idempotency-key") })),
  }),
  // PATCH /v1/reservations/{id}: modify a confirmed reservation, re-quoted atomically
  defineOperation({
    method: "patch", path: "/reservations/{id}", operationId: "updateReservation", summary: "Modify a reservation", tag, scope: "reservations:write",
    params, body: reservationUpdateSchema, response: reservationSchema,
    errors: ["invalid_state_transition", "restriction_violated", "no_availability"],
    handler: async ({ ctx, params, body }) => presentReservation(await updateReservation({ ...ctx, id: params.id, input: body })),
  }),
  // POST /v1/reservations/{id}/cancel: cancel a confirmed reservation
  defineOperation({
    method: "post", path: "/reservations/{id}/cancel", operationId: "cancelReservation", summary: "Cancel a reservation", tag, scope: "reservations:write",
    params, body: cancelSchema, response: reservationSchema,
    errors: ["invalid_state_transition"],
    handler: async ({ ctx, params, body }) => presentReservation(await cancelReservation({ ...ctx, id: params.id, reason: body.reason })),
  }),
  // POST /v1/reservations/{id}/check_in: check in on the arrival date and assign a room
  defineOperation({
    method: "post", path: "/reservations/{id}/check_in", operationId: "checkInReservation", summary: "Check a reservation in", tag, scope: "reservations:write",
    params, body: checkInSchema, response: reservationSchema,
    errors: ["invalid_state_transition", "no_availability"],
    handler: async ({ ctx, params, body }) => presentReservation(await checkInReservation({ ...ctx, id: params.id, roomId: body.room_id })),
  }),
  // POST /v1/reservations/{id}/check_out: check out; the folio must be settled
  defineOperation({
    method: "post", path: "/reservations/{id}/check_out", operationId: "checkOutReservation", summary: "Check a reservation out", tag, scope: "reservations:write",
    params, body: emptyActionSchema, response: reservationSchema,
    errors: ["invalid_state_transition", "balance_outstanding", "no_availability", "restriction_violated"],
    description:
      "Requires scope `reservations:write`. The stay ends on the property's today: one left early is shortened first (as `change_departure` does, with the early-departure fee), one that stayed past its departure is extended to today. The folio must then be settled (409 `balance_outstanding`, and nothing changes); it closes and the room becomes dirty.",
    handler: async ({ ctx, params }) => presentReservation(await checkOutReservation({ ...ctx, id: params.id })),
  }),
  // POST /v1/reservations/{id}/change_departure: shorten or extend a stay in house
  defineOperation({
    method: "post", path: "/reservations/{id}/change_departure", operationId: "changeReservationDeparture", summary: "Change the departure of a stay in house", tag,
    scope: "reservations:write", params, body: changeDepartureSchema, response: reservationSchema,
    errors: ["invalid_state_transition", "no_availability", "restriction_violated"],
    description:
      "Requires scope `reservations:write`. For a checked-in reservation only. An earlier date is an early departure: the nights from it on go back on sale, their room charges leave the folio and the rate plan's `early_departure_fee` is posted as its own line (once per stay). A later date extends the stay: the new nights need a rate, no stop-sell and a departure not closed to departure (409 `restriction_violated`), and free rooms (409 `no_availability`); their charges are posted. `nights`, `nightly` and `total` follow. Emits `reservation.updated` and `inventory.updated`.",
    handler: async ({ ctx, params, body }) => presentReservation(await changeDeparture({ ...ctx, id: params.id, checkOut: body.check_out })),
  }),
  // POST /v1/reservations/{id}/move_room: move a guest in house to another room of the type
  defineOperation({
    method: "post", path: "/reservations/{id}/move_room", operationId: "moveReservationRoom", summary: "Move a guest in house to another room", tag,
    scope: "reservations:write", params, body: moveRoomSchema, response: reservationSchema,
    errors: ["invalid_state_transition"],
    description:
      "Requires scope `reservations:write`. For a checked-in reservation: the new room must be of the stay's room type, free, and clean or inspected (422 `parameter_invalid`, param `room_id`). The room left becomes dirty and free; the move is kept in the stay's room history (`GET /v1/reservations/{id}/room_moves`). Emits `reservation.updated` and `housekeeping.status_changed`.",
    handler: async ({ ctx, params, body }) => presentReservation(await moveRoom({ ...ctx, id: params.id, roomId: body.room_id, reason: body.reason })),
  }),
  // GET /v1/reservations/{id}/room_moves: the stay's room history
  defineOperation({
    method: "get", path: "/reservations/{id}/room_moves", operationId: "listReservationRoomMoves", summary: "List a stay's room moves", tag, scope: "reservations:read",
    params, list: true, response: listSchema(roomMoveSchema, "RoomMoveList"),
    description: "Requires scope `reservations:read`. Every move of the stay, newest first.",
    handler: async ({ ctx, params, list }) => list.envelope(await listRoomMoves({ ...ctx, id: params.id, page: list.page }), presentRoomMove),
  }),
  // POST /v1/reservations/{id}/late_check_out: grant a late check-out, with the plan's fee
  defineOperation({
    method: "post", path: "/reservations/{id}/late_check_out", operationId: "grantReservationLateCheckOut", summary: "Grant a late check-out", tag, scope: "reservations:write",
    params, body: lateCheckOutSchema, response: reservationSchema,
    errors: ["invalid_state_transition", "no_availability"],
    description:
      "Requires scope `reservations:write`. For a guest in house on the departure day: posts the rate plan's `late_check_out_fee` (on the stay's last night) as its own folio line, once per stay (409 `invalid_state_transition` on another day or a second time), and keeps the hour the guest may stay to (`until`, later than the property's `check_out_time`; shown as `late_check_out.until`). Emits `reservation.updated`.",
    handler: async ({ ctx, params, body }) => presentReservation(await grantLateCheckOut({ ...ctx, id: params.id, until: body.until })),
  }),
  // POST /v1/reservations/{id}/no_show: record a guest who never arrived
  defineOperation({
    method: "post", path: "/reservations/{id}/no_show", operationId: "noShowReservation", summary: "Mark a reservation as no-show", tag, scope: "reservations:write",
    params, body: emptyActionSchema, response: reservationSchema,
    errors: ["invalid_state_transition"],
    description:
      "Requires scope `reservations:write`. Once the arrival night is over: from the property's night-audit hour after the arrival date (03:00 the next morning by default), or once an audit closed that day. The nights go back on sale; the room-night charges are replaced by the rate plan's `no_show_fee` (without one: the whole stay on a non-refundable plan, nothing on a refundable one).",
    handler: async ({ ctx, params }) => presentReservation(await noShowReservation({ ...ctx, id: params.id })),
  }),
  // POST /v1/reservations/{id}/upgrade: move the stay to another room type, charged or free
  defineOperation({
    method: "post", path: "/reservations/{id}/upgrade", operationId: "upgradeReservation", summary: "Upgrade a reservation to another room type", tag,
    scope: "reservations:write", params, body: upgradeSchema, response: reservationSchema,
    errors: ["invalid_state_transition", "no_availability", "restriction_violated"],
    description:
      "Requires scope `reservations:write`. For a confirmed reservation (every night) or a guest in house (the nights from the property's today on). The new room type must be another of the property's and sleep the party (422 `parameter_invalid`, param `room_type_id`). With `charge: difference` the nights are re-priced at the rate plan's rates for the new type (a rate and no stop-sell, 409 `restriction_violated`); with `charge: none` they keep their price (a complimentary upgrade). The old type's nights go back on sale and the new type's are sold (409 `no_availability` when it is full); the folio's room charges for those nights are replaced. A guest in house moves to a ready room of the new type (`room_id`, or the first ready one; 409 `no_availability` when none is), the room left becoming dirty. Emits `reservation.updated` and `inventory.updated` for both room types.",
    handler: async ({ ctx, params, body }) => presentReservation(await upgradeReservation({ ...ctx, id: params.id, input: body })),
  }),
  // GET /v1/reservations/{id}/folio: charges, payments, refunds and balance
  defineOperation({
    method: "get", path: "/reservations/{id}/folio", operationId: "getReservationFolio", summary: "Retrieve a reservation's folio", tag: "Folios",
    scope: "reservations:read", params, response: folioSchema,
    handler: async ({ ctx, params }) => getReservationFolio({ ...ctx, reservationId: params.id }),
  }),
  // POST /v1/folios/{id}/charges: add an extra charge (or a credit) to an open folio
  defineOperation({
    method: "post", path: "/folios/{id}/charges", operationId: "createFolioCharge", summary: "Add a charge to a folio", tag: "Folios",
    scope: "reservations:write", params: idParam("fol"), body: chargeCreateSchema, response: chargeSchema, status: 201,
    errors: ["invalid_state_transition"],
    handler: async ({ ctx, params, body }) => chargeFolio({ ...ctx, folioId: params.id, input: body }),
  }),
];

