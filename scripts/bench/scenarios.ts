// The measured routes. Each names the request both servers get (the bare server ignores the
// Authorization and Idempotency-Key headers) and how it is measured.
import { randomBytes } from "node:crypto";
import { addDays } from "@/lib/dates";
import type { BookingHotel, ReportHotel } from "./fixtures";
import type { RequestSpec } from "./load";

export type Scenario = {
  route: string;
  request: RequestSpec;
  /** The status a working route answers. */
  status: number;
  /** "load": autocannon with the run's connections; "heavy": sequential requests, then a short, narrower load. */
  mode: "load" | "heavy";
  /** The part of the answer both servers must agree on, for a request whose answer is fixed: checked before measuring. */
  sameAnswer?: (body: Record<string, unknown>) => unknown;
};

const runTag = randomBytes(4).toString("hex");
let counter = 0;
/** Unique across both servers and the warm-ups: both write to the same database. */
const unique = () => `${runTag}-${(counter++).toString(36)}`;
const randomInt = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));

export function scenarios(booking: BookingHotel, report: ReportHotel): Scenario[] {
  return [
    {
      route: "GET /v1/guests?limit=25",
      request: { method: "GET", path: () => "/v1/guests?limit=25" },
      status: 200,
      mode: "load",
    },
    {
      route: "POST /v1/guests",
      request: {
        method: "POST",
        path: () => "/v1/guests",
        body: () => ({ first_name: "Bench", last_name: "Guest", email: `guest-${unique()}@bench.example`, phone: "+351 21 000 0000" }),
      },
      status: 201,
      mode: "load",
    },
    {
      route: "POST /v1/reservations (Idempotency-Key)",
      request: {
        method: "POST",
        path: () => "/v1/reservations",
        headers: () => ({ "idempotency-key": `bench-${unique()}` }),
        body: () => {
          // Stays of one to four nights, arriving any day of the coming year.
          const checkIn = addDays(booking.today, randomInt(1, 360));
          const nights = [1, 1, 2, 2, 2, 3, 3, 4][randomInt(0, 7)];
          return {
            property_id: booking.propertyId,
            room_type_id: booking.roomTypeId,
            rate_plan_id: booking.ratePlanId,
            check_in: checkIn,
            check_out: addDays(checkIn, nights),
            adults: 2,
            guest: { first_name: "Bench", last_name: "Booker", email: `booker-${unique()}@bench.example` },
            source: "api",
          };
        },
      },
      status: 201,
      mode: "load",
    },
    {
      route: "GET /v1/availability (30 nights, 4 types × 2 plans)",
      request: {
        method: "GET",
        path: () => {
          const checkIn = addDays(report.today, randomInt(1, 330));
          return `/v1/availability?property_id=${report.propertyId}&check_in=${checkIn}&check_out=${addDays(checkIn, 30)}&adults=2`;
        },
      },
      status: 200,
      mode: "load",
    },
    {
      route: "GET /v1/reservations?limit=25",
      request: { method: "GET", path: () => "/v1/reservations?limit=25" },
      status: 200,
      mode: "load",
    },
    {
      route: `GET /v1/reports/revenue (365 days, ${Math.round(report.reservations / 1000)}k reservations)`,
      request: { method: "GET", path: () => `/v1/reports/revenue?property_id=${report.propertyId}&from=${report.from}&to=${report.to}` },
      status: 200,
      mode: "heavy",
      // The bare server reads the same tables: its figures must be Innkeep's, night for night.
      sameAnswer: (body) => ({ data: body.data, totals: body.totals }),
    },
  ];
}
