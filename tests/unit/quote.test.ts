import { describe, expect, it } from "vitest";
import { addDays, nightsOf, type IsoDate } from "@/lib/dates";
import { quoteStay, type NightRate } from "@/server/rates/quote";

const rate = (amount: number, extra: Partial<NightRate> = {}): NightRate => ({
  amount,
  minStay: 1,
  closedToArrival: false,
  closedToDeparture: false,
  stopSell: false,
  ...extra,
});

/** A rate calendar: a price per date, restrictions where given, nothing outside [from, to). */
function calendar(from: IsoDate, to: IsoDate, price: (date: IsoDate, i: number) => number, overrides: Record<IsoDate, Partial<NightRate>> = {}) {
  const map = new Map(nightsOf(from, to).map((d, i) => [d, rate(price(d, i), overrides[d])]));
  return (date: IsoDate) => map.get(date);
}

const d = (n: number) => addDays("2026-12-01", n);

describe("quoteStay: prices", () => {
  it("prices each night at its own rate and totals them", () => {
    const rates = calendar(d(0), d(10), (_, i) => 10_000 + i * 1_000);
    const quote = quoteStay(d(2), d(5), rates);
    expect(quote).toEqual({
      nightly: [
        { date: d(2), amount: 12_000 },
        { date: d(3), amount: 13_000 },
        { date: d(4), amount: 14_000 },
      ],
      total: 39_000,
      bookable: true,
    });
  });

  it("prices a one-night stay and a free (0) night", () => {
    const rates = calendar(d(0), d(3), (_, i) => (i === 1 ? 0 : 5_000));
    expect(quoteStay(d(0), d(1), rates)).toMatchObject({ total: 5_000, bookable: true, nightly: [{ date: d(0), amount: 5_000 }] });
    expect(quoteStay(d(0), d(3), rates)).toMatchObject({ total: 10_000, bookable: true });
  });

  it("never reads the departure day's price", () => {
    const rates = calendar(d(0), d(5), (_, i) => (i === 3 ? 999_999 : 100));
    expect(quoteStay(d(0), d(3), rates).total).toBe(300);
  });
});

describe("quoteStay: restrictions", () => {
  it("refuses a stay with a night that has no rate (no_rate), naming the night", () => {
    const rates = calendar(d(0), d(3), () => 100);
    const quote = quoteStay(d(1), d(5), rates);
    expect(quote).toMatchObject({ bookable: false, reason: "no_rate", total: 200 });
    expect(quote.nightly.map((n) => n.date)).toEqual([d(1), d(2)]);
    expect(quote.explanation).toContain(d(3));
  });

  it("refuses a stay touching a stop-sell night, on any night of it but not on the departure day", () => {
    const rates = calendar(d(0), d(10), () => 100, { [d(4)]: { stopSell: true } });
    expect(quoteStay(d(4), d(5), rates)).toMatchObject({ bookable: false, reason: "stop_sell" });
    expect(quoteStay(d(2), d(6), rates)).toMatchObject({ bookable: false, reason: "stop_sell" });
    expect(quoteStay(d(2), d(6), rates).explanation).toContain(d(4));
    expect(quoteStay(d(2), d(4), rates)).toMatchObject({ bookable: true, total: 200 });
    expect(quoteStay(d(5), d(7), rates)).toMatchObject({ bookable: true });
  });

  it("refuses an arrival on a closed-to-arrival day only", () => {
    const rates = calendar(d(0), d(10), () => 100, { [d(3)]: { closedToArrival: true } });
    expect(quoteStay(d(3), d(5), rates)).toMatchObject({ bookable: false, reason: "closed_to_arrival" });
    expect(quoteStay(d(2), d(5), rates)).toMatchObject({ bookable: true }); // staying through it
    expect(quoteStay(d(1), d(3), rates)).toMatchObject({ bookable: true }); // leaving on it
  });

  it("refuses a departure on a closed-to-departure day, read from the departure day's row", () => {
    const rates = calendar(d(0), d(10), () => 100, { [d(5)]: { closedToDeparture: true } });
    expect(quoteStay(d(3), d(5), rates)).toMatchObject({ bookable: false, reason: "closed_to_departure" });
    expect(quoteStay(d(3), d(7), rates)).toMatchObject({ bookable: true }); // staying through it
    expect(quoteStay(d(5), d(7), rates)).toMatchObject({ bookable: true }); // arriving on it
    // A departure day without any rate row has no restriction.
    expect(quoteStay(d(8), d(10), rates)).toMatchObject({ bookable: true });
  });

  it("applies the arrival night's minimum stay", () => {
    const rates = calendar(d(0), d(10), () => 100, { [d(2)]: { minStay: 3 }, [d(6)]: { minStay: 5 } });
    expect(quoteStay(d(2), d(4), rates)).toMatchObject({ bookable: false, reason: "min_stay" });
    expect(quoteStay(d(2), d(4), rates).explanation).toContain("3");
    expect(quoteStay(d(2), d(5), rates)).toMatchObject({ bookable: true, total: 300 });
    // A later night's minimum does not bind a stay that arrives before it.
    expect(quoteStay(d(5), d(7), rates)).toMatchObject({ bookable: true });
    expect(quoteStay(d(1), d(3), rates)).toMatchObject({ bookable: true });
  });

  it("reports one reason, in the order no_rate, stop_sell, closed_to_arrival, closed_to_departure, min_stay", () => {
    const all = { stopSell: true, closedToArrival: true, minStay: 9 };
    const everything = calendar(d(0), d(4), () => 100, { [d(0)]: all, [d(2)]: { closedToDeparture: true } });
    expect(quoteStay(d(0), d(6), everything).reason).toBe("no_rate");
    expect(quoteStay(d(0), d(2), everything).reason).toBe("stop_sell");
    const noStop = calendar(d(0), d(4), () => 100, { [d(0)]: { closedToArrival: true, minStay: 9 }, [d(2)]: { closedToDeparture: true } });
    expect(quoteStay(d(0), d(2), noStop).reason).toBe("closed_to_arrival");
    const departing = calendar(d(0), d(4), () => 100, { [d(0)]: { minStay: 9 }, [d(2)]: { closedToDeparture: true } });
    expect(quoteStay(d(0), d(2), departing).reason).toBe("closed_to_departure");
    const short = calendar(d(0), d(4), () => 100, { [d(0)]: { minStay: 9 } });
    expect(quoteStay(d(0), d(2), short).reason).toBe("min_stay");
  });
});
