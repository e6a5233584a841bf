import { describe, expect, it } from "vitest";
import { amountText, currencyDigits, formatMoney, parseMoney, propertyLocale, sampleAmount } from "@/lib/money";
import { formatDay, formatMoment } from "@/lib/dates";
import { staffErrorMessage } from "@/lib/words";

// Intl writes some currencies and groups with no-break spaces; compare with ordinary ones.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("parseMoney", () => {
  it("reads the US format: comma groups, point decimals", () => {
    expect(parseMoney("1,250", "USD", "en-US")).toBe(125_000);
    expect(parseMoney("1250", "USD", "en-US")).toBe(125_000);
    expect(parseMoney("1,250.5", "USD", "en-US")).toBe(125_050);
    expect(parseMoney("1,250.50", "USD", "en-US")).toBe(125_050);
    expect(parseMoney("  12.05 ", "USD", "en-US")).toBe(1_205);
    expect(parseMoney("1,234,567.89", "USD", "en-US")).toBe(123_456_789);
    expect(parseMoney("0", "USD", "en-US")).toBe(0);
  });

  it("refuses what the US format cannot mean", () => {
    expect(parseMoney("12.345", "USD", "en-US")).toBeNull(); // three decimals: not a German 12,345
    expect(parseMoney("12,50", "USD", "en-US")).toBeNull(); // a group of two digits
    expect(parseMoney("1,2500", "USD", "en-US")).toBeNull();
    expect(parseMoney("1.250,50", "USD", "en-US")).toBeNull();
    expect(parseMoney("", "USD", "en-US")).toBeNull();
    expect(parseMoney("abc", "USD", "en-US")).toBeNull();
    expect(parseMoney("12.", "USD", "en-US")).toBeNull();
    expect(parseMoney("1e3", "USD", "en-US")).toBeNull();
    expect(parseMoney("--5", "USD", "en-US")).toBeNull();
  });

  it("reads negative amounts (a credit)", () => {
    expect(parseMoney("-12.50", "USD", "en-US")).toBe(-1_250);
    expect(parseMoney("−1,250", "USD", "en-US")).toBe(-125_000);
    expect(parseMoney("-0", "USD", "en-US")).toBe(0);
  });

  it("reads the German format: point groups, comma decimals", () => {
    expect(parseMoney("1.250,50", "EUR", "de-DE")).toBe(125_050);
    expect(parseMoney("1250,5", "EUR", "de-DE")).toBe(125_050);
    expect(parseMoney("12.345", "EUR", "de-DE")).toBe(1_234_500);
    expect(parseMoney("1,250.50", "EUR", "de-DE")).toBeNull();
    expect(parseMoney("12,345", "EUR", "de-DE")).toBeNull();
  });

  it("reads space groups (France) typed with an ordinary space", () => {
    expect(parseMoney("1 250,50", "EUR", "fr-FR")).toBe(125_050);
    expect(parseMoney("1\u202f250,50", "EUR", "fr-FR")).toBe(125_050);
  });

  it("takes no decimals for yen", () => {
    expect(parseMoney("1,250", "JPY", "ja-JP")).toBe(1_250);
    expect(parseMoney("1250", "JPY", "ja-JP")).toBe(1_250);
    expect(parseMoney("12.5", "JPY", "ja-JP")).toBeNull();
  });

  it("takes three decimals for Bahraini dinars", () => {
    expect(currencyDigits("BHD")).toBe(3);
    expect(parseMoney("1.5", "BHD", "en-US")).toBe(1_500);
    expect(parseMoney("12.345", "BHD", "en-US")).toBe(12_345);
  });
});

describe("formatMoney", () => {
  it("formats minor units in the property's format", () => {
    expect(formatMoney({ amount: 83_700, currency: "USD" }, "en-US")).toBe("$837.00");
    expect(formatMoney({ amount: 125_050, currency: "USD" }, "en-US")).toBe("$1,250.50");
    expect(plain(formatMoney({ amount: 125_050, currency: "EUR" }, "de-DE"))).toBe("1.250,50 €");
    expect(formatMoney({ amount: 1_250, currency: "JPY" }, "ja-JP")).toBe("￥1,250");
    expect(formatMoney({ amount: -1_250, currency: "USD" }, "en-US")).toBe("-$12.50");
  });

  it("gives form text that parses back to the same amount", () => {
    expect(amountText({ amount: 125_050, currency: "USD" }, "en-US")).toBe("1250.50");
    expect(amountText({ amount: 125_050, currency: "EUR" }, "de-DE")).toBe("1250,50");
    expect(amountText({ amount: 125_050, currency: "USD" }, "en-US", { grouping: true })).toBe("1,250.50");
    expect(amountText({ amount: 1_250, currency: "JPY" }, "ja-JP")).toBe("1250");
    for (const [amount, currency, locale] of [
      [125_050, "USD", "en-US"],
      [125_050, "EUR", "de-DE"],
      [-99, "EUR", "fr-FR"],
      [1_250, "JPY", "ja-JP"],
    ] as const) {
      expect(parseMoney(amountText({ amount, currency }, locale), currency, locale)).toBe(amount);
      expect(parseMoney(amountText({ amount, currency }, locale, { grouping: true }), currency, locale)).toBe(amount);
    }
    expect(sampleAmount("EUR", "de-DE")).toBe("129,00");
    expect(sampleAmount("JPY", "ja-JP")).toBe("129");
  });
});

describe("propertyLocale", () => {
  it("is the country's main language with the country", () => {
    expect(propertyLocale("DE")).toBe("de-DE");
    expect(propertyLocale("us")).toBe("en-US");
    expect(propertyLocale("PT")).toBe("pt-PT");
    expect(propertyLocale("JP")).toBe("ja-JP");
    expect(propertyLocale(undefined)).toBe("en-US");
    expect(propertyLocale("Germany")).toBe("en-US");
  });
});

describe("times in the property's zone", () => {
  // 10:04:43 UTC on 25 Nov 2026 is 05:04 in New York (EST, UTC−5) and 10:04 in Lisbon (WET, UTC+0).
  it("formats a moment in the property's zone, one form per country", () => {
    expect(plain(formatMoment("2026-11-25T10:04:43Z", { timezone: "America/New_York", locale: "en-US" }))).toBe("Nov 25, 2026, 5:04 AM");
    expect(formatMoment("2026-11-25T10:04:43Z", { timezone: "Europe/Lisbon", locale: "pt-PT" })).toBe("25 Nov 2026, 10:04");
    // 23:30 UTC is already the next day in Tokyo (UTC+9): 08:30 on the 26th.
    expect(plain(formatMoment("2026-11-25T23:30:00Z", { timezone: "Asia/Tokyo", locale: "en-US" }))).toBe("Nov 26, 2026, 8:30 AM");
  });

  it("formats a calendar date as that date", () => {
    expect(formatDay("2026-11-25", "en-US", "long")).toBe("Wed, Nov 25, 2026");
    expect(formatDay("2026-11-25", "pt-PT", "medium")).toBe("25 Nov 2026");
    expect(formatDay("2026-01-01", "en-US", "short")).toBe("Jan 1");
  });
});

describe("API errors in the staff's words", () => {
  const words = { money: (m: { amount: number; currency: string }) => formatMoney(m, "en-US"), day: (d: string) => formatDay(d, "en-US", "medium") };
  it("says an outstanding balance in the property's currency, not in minor units", () => {
    const message = staffErrorMessage(
      { code: "balance_outstanding", param: null, message: "The folio has an outstanding balance of 83700 (minor units); settle it before check-out.", amount: { amount: 83_700, currency: "USD" } },
      words,
    );
    expect(message).toBe("The guest still owes $837.00. Take a payment before checking out.");
    expect(staffErrorMessage({ code: "amount_exceeds_refundable", param: "amount", message: "At most 500 (minor units)…", amount: { amount: 500, currency: "USD" } }, words)).toBe(
      "At most $5.00 of this payment can still be refunded.",
    );
  });

  it("tells an early check-out's refusal as what today's check-out changes, and drops parameter names the API gives beside its words", () => {
    const early = staffErrorMessage(
      {
        code: "balance_outstanding",
        param: null,
        message: "Checking out today ends the stay on 2026-11-28 instead of 2026-11-29: 1 night (the night of 2026-11-28, USD 227.00 with taxes) comes off the folio, with no early-departure fee; the folio would then owe the guest USD 227.00. …",
        amount: { amount: -22_700, currency: "USD" },
      },
      words,
    );
    expect(early).toBe("Checking out today ends the stay on Nov 28, 2026 instead of Nov 29, 2026, so the guest is then owed $227.00. Refund it to their payment before checking out.");
    expect(
      staffErrorMessage({ code: "parameter_invalid", param: "check_in", message: "The arrival date (check_in) cannot be before today, 2026-11-28 at the property (its business date)." }, words),
    ).toBe("The arrival date cannot be before today, Nov 28, 2026 at the property (its business date).");
  });

  it("words the validator's and the API's phrasing, dates and enum values", () => {
    expect(staffErrorMessage({ code: "parameter_invalid", param: "amount", message: "Too small: expected number to be >=0." }, words)).toBe("Must be at least 0.");
    expect(staffErrorMessage({ code: "parameter_invalid", param: "min_stay", message: "Invalid parameter 'min_stay': must be at least 1" }, words)).toBe("Min stay must be at least 1");
    expect(staffErrorMessage({ code: "invalid_state_transition", param: null, message: "Check-in is possible only on the arrival date (2026-11-27); today is 2026-11-25 at the property." }, words)).toBe(
      "Check-in is possible only on the arrival date (Nov 27, 2026); today is Nov 25, 2026 at the property.",
    );
    expect(staffErrorMessage({ code: "invalid_state_transition", param: "status", message: "An assignment cannot go from in_progress to pending." }, words)).toBe("An assignment cannot go from in progress to pending.");
  });
});
