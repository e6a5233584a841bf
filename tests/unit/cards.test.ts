import { describe, expect, it } from "vitest";
import { cardBrand, cardExpired, luhnValid, testCards } from "@/server/payments/cards";

describe("luhnValid", () => {
  it("accepts real-shaped numbers of every brand and every sandbox test card", () => {
    for (const n of ["4242424242424242", "5555555555554444", "2223003122003222", "378282246310005", "6011111111111117", "4000056655665556"]) {
      expect(luhnValid(n), n).toBe(true);
    }
    for (const n of Object.keys(testCards)) expect(luhnValid(n), n).toBe(true);
  });

  it("refuses a number whose check digit is wrong, or two digits swapped", () => {
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(luhnValid("4242424242424243")).toBe(false);
    expect(luhnValid("4000000000000003")).toBe(false);
    expect(luhnValid("2422424242424242")).toBe(false);
  });

  it("refuses numbers shorter than 12 digits even when the checksum holds", () => {
    expect(luhnValid("42424242424")).toBe(false); // 11 digits
    expect(luhnValid("0000000000")).toBe(false);
    expect(luhnValid("")).toBe(false);
  });

  it("refuses anything that is not digits", () => {
    expect(luhnValid("4242 4242 4242 4242")).toBe(false);
    expect(luhnValid("424242424242424x")).toBe(false);
  });
});

describe("cardBrand", () => {
  it.each([
    ["4242424242424242", "visa"],
    ["4000000000000002", "visa"],
    ["5105105105105100", "mastercard"],
    ["5555555555554444", "mastercard"],
    ["2221000000000009", "mastercard"], // the 2-series starts at 2221…
    ["2720990000000007", "mastercard"], // …and ends at 2720
    ["2220990000000000", "unknown"],
    ["2721000000000000", "unknown"],
    ["5000000000000000", "unknown"],
    ["5600000000000000", "unknown"],
    ["378282246310005", "amex"],
    ["341111111111111", "amex"],
    ["6011111111111117", "discover"],
    ["6500000000000002", "discover"],
    ["6445644564456445", "discover"],
    ["6430000000000000", "unknown"],
    ["3530111333300000", "unknown"],
  ])("%s is %s", (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });
});

describe("cardExpired: good through the last day of its month (UTC)", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  it("a card expiring this month or later is good", () => {
    expect(cardExpired(11, 2026, now)).toBe(false);
    expect(cardExpired(12, 2026, now)).toBe(false);
    expect(cardExpired(1, 2027, now)).toBe(false);
  });
  it("a card whose month has passed is expired", () => {
    expect(cardExpired(10, 2026, now)).toBe(true);
    expect(cardExpired(12, 2025, now)).toBe(true);
    expect(cardExpired(11, 2025, now)).toBe(true);
  });
  it("the last instant of the expiry month is still good, the first of the next is not", () => {
    expect(cardExpired(11, 2026, new Date("2026-11-30T23:59:59Z"))).toBe(false);
    expect(cardExpired(11, 2026, new Date("2026-12-01T00:00:00Z"))).toBe(true);
  });
});
