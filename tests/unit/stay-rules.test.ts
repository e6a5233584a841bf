import { describe, expect, it } from "vitest";
import { ApiError } from "@/server/errors";
import { assertStayDates, maxNights } from "@/server/inventory/stay-rules";
import { transitions } from "@/server/reservations/transitions";

const today = "2026-11-21";

function fault(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    return { status: e.status, code: e.code, param: e.param };
  }
  throw new Error("expected an ApiError");
}

describe("assertStayDates: the contract's date checks, in its order", () => {
  it("returns the number of nights of a valid stay", () => {
    expect(assertStayDates(today, "2026-11-22", today, "body")).toBe(1);
    expect(assertStayDates("2026-12-30", "2027-01-02", today, "body")).toBe(3);
  });

  it("refuses check_out on or before check_in (param check_out)", () => {
    expect(fault(() => assertStayDates("2026-11-25", "2026-11-25", today, "body"))).toEqual({ status: 422, code: "parameter_invalid", param: "check_out" });
    expect(fault(() => assertStayDates("2026-11-25", "2026-11-24", today, "body"))).toEqual({ status: 422, code: "parameter_invalid", param: "check_out" });
  });

  it("refuses a check_in before the property's today, accepts today itself", () => {
    expect(fault(() => assertStayDates("2026-11-20", "2026-11-22", today, "body"))).toEqual({ status: 422, code: "parameter_invalid", param: "check_in" });
    expect(assertStayDates(today, "2026-11-23", today, "body")).toBe(2);
  });

  it(`allows ${maxNights} nights and refuses ${maxNights + 1}`, () => {
    expect(maxNights).toBe(30);
    expect(assertStayDates(today, "2026-12-21", today, "body")).toBe(30);
    expect(fault(() => assertStayDates(today, "2026-12-22", today, "body"))).toEqual({ status: 422, code: "parameter_invalid", param: "check_out" });
  });

  it("reports the first failing check when several fail", () => {
    // Reversed and in the past: the order check comes first.
    expect(fault(() => assertStayDates("2026-11-10", "2026-11-09", today, "body")).param).toBe("check_out");
    // In the past and too long: the past check comes before the length check.
    expect(fault(() => assertStayDates("2026-10-01", "2026-11-15", today, "body")).param).toBe("check_in");
  });

  it("answers 400 for query parameters and 422 for body fields", () => {
    expect(fault(() => assertStayDates("2026-11-25", "2026-11-24", today, "query")).status).toBe(400);
    expect(fault(() => assertStayDates("2026-11-20", "2026-11-24", today, "query")).status).toBe(400);
  });
});

describe("the reservation state machine", () => {
  it("allows exactly confirmed → checked_in → checked_out, confirmed → cancelled and confirmed → no_show", () => {
    const allowed = Object.entries(transitions).flatMap(([from, tos]) => tos.map((to) => `${from}→${to}`)).sort();
    expect(allowed).toEqual(["checked_in→checked_out", "confirmed→cancelled", "confirmed→checked_in", "confirmed→no_show"]);
  });
});
