import { defineOperation } from "@/server/http/operation";
import { cardErrorCodes } from "@/server/errors";
import { presentReservation } from "@/server/reservations/present";
import { reservationCreateSchema, reservationSchema } from "@/server/reservations/schemas";
import { createBooking } from "./book";

const tag = "Reservations";

/** The booking's operation: a reservation with what its rate plan asks at booking (server/bookings/book.ts). */
export const bookingOperations = [
  // POST /v1/reservations: book a stay; never oversells
  defineOperation({
    method: "post", path: "/reservations", operationId: "createReservation", summary: "Create a reservation", tag, scope: "reservations:write",
    body: reservationCreateSchema, response: reservationSchema, status: 201,
    description:
      "Requires scope `reservations:write`. Checks, in order: shapes (422), check_out after check_in, check_in not in the past, at most 30 nights, occupancy, the rate plan covering the room type (422), rate restrictions (409 `restriction_violated`), availability (409 `no_availability`). A `guarantee` card is saved at the property's Stripe account first: one the bank refuses answers 402 with its decline code and books nothing. Where the rate plan asks a `deposit`, it is held on that card before the stay is written and taken once it is (a payment on the folio, `payment.succeeded`): a deposit the bank refuses answers 402 and books nothing; a booking without a card has its deposit still to pay; 503 when Stripe cannot be reached (retry with the same Idempotency-Key).",
    errors: ["restriction_violated", "no_availability", "service_unavailable", ...cardErrorCodes], declinesRecordNoPayment: true,
    handler: async ({ ctx, body, c }) => presentReservation(await createBooking({ ...ctx, input: body, idempotencyKey: c.req.header("idempotency-key") })),
  }),
];
