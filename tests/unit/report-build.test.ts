import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { occupancyRows, occupancyTotals, revenueRows, revenueTotals, toCsv, type NightFigures } from "@/server/reports/build";

const night = (date: string, roomsAvailable: number, roomsSold: number, roomRevenue: number): [string, NightFigures] => [
  date,
  { date, roomsAvailable, roomsSold, roomRevenue },
];

describe("toCsv", () => {
  it("writes a header of the columns, then one CRLF-terminated line per row, in column order", () => {
    const csv = toCsv(
      [
        { b: 2, a: 1, ignored: "x" },
        { a: 3, b: 4 },
      ],
      ["a", "b"],
    );
    expect(csv).toBe("a,b\r\n1,2\r\n3,4\r\n");
  });

  it("quotes fields holding a comma, a quote or a line break, doubling the quotes; null and undefined are empty", () => {
    const rows = [{ v: 'say "hi", then go' }, { v: "two\nlines" }, { v: "cr\rhere" }, { v: null }, { v: undefined }, { v: "plain" }, { v: 0 }];
    const csv = toCsv(rows, ["v"]);
    expect(csv).toBe('v\r\n"say ""hi"", then go"\r\n"two\nlines"\r\n"cr\rhere"\r\n\r\n\r\nplain\r\n0\r\n');
  });

  it("round-trips through a real CSV parser", () => {
    const rows = [
      { group: "direct", name: 'The "Grand", Suite', n: 3 },
      { group: null, name: "line\r\nbreak", n: 0 },
    ];
    const parsed = parse(toCsv(rows, ["group", "name", "n"]), { columns: true });
    expect(parsed).toEqual([
      { group: "direct", name: 'The "Grand", Suite', n: "3" },
      { group: "", name: "line\r\nbreak", n: "0" },
    ]);
  });

  it("an empty report is its header alone", () => {
    expect(toCsv([], ["date", "rooms_sold"])).toBe("date,rooms_sold\r\n");
  });
});

describe("occupancy", () => {
  const nights = new Map([night("2026-03-01", 3, 1, 0), night("2026-03-02", 3, 2, 0), night("2026-03-03", 0, 0, 0)]);
  it("one row per night of [from, to), occupancy sold/available to four places, 0 with nothing available, nights without figures as zeros", () => {
    expect(occupancyRows("2026-03-01", "2026-03-05", nights)).toEqual([
      { date: "2026-03-01", rooms_available: 3, rooms_sold: 1, occupancy: 0.3333 },
      { date: "2026-03-02", rooms_available: 3, rooms_sold: 2, occupancy: 0.6667 },
      { date: "2026-03-03", rooms_available: 0, rooms_sold: 0, occupancy: 0 },
      { date: "2026-03-04", rooms_available: 0, rooms_sold: 0, occupancy: 0 },
    ]);
  });
  it("totals divide the sums, not average the ratios", () => {
    const rows = occupancyRows("2026-03-01", "2026-03-03", new Map([night("2026-03-01", 4, 4, 0), night("2026-03-02", 2, 0, 0)]));
    expect(occupancyTotals(rows)).toEqual({ rooms_available: 6, rooms_sold: 4, occupancy: 0.6667 });
  });
});

describe("revenue: ADR and RevPAR in whole minor units, rounded half up", () => {
  it("ADR = revenue / rooms sold, RevPAR = revenue / rooms available; 0 when the divisor is 0", () => {
    const nights = new Map([
      night("2026-03-01", 3, 2, 10_001),
      night("2026-03-02", 4, 3, 10_000),
      night("2026-03-03", 5, 0, 0),
      night("2026-03-04", 0, 0, 0),
    ]);
    // The folios' charges of the first two nights: 10,001 with 1,000 of tax; 11,000 with 1,000 of tax.
    const charged = new Map([
      ["2026-03-01", { net: 9_001, tax: 1_000, gross: 10_001 }],
      ["2026-03-02", { net: 10_000, tax: 1_000, gross: 11_000 }],
    ]);
    const rows = revenueRows("2026-03-01", "2026-03-05", nights, charged, new Map([["2026-03-02", 700]]), new Map([["2026-03-03", 50]]));
    const none = { net: 0, tax: 0, gross: 0 };
    expect(rows).toEqual([
      { date: "2026-03-01", room_revenue: 10_001, net: 9_001, tax: 1_000, gross: 10_001, adr: 5_001, revpar: 3_334, payments: 0, refunds: 0, credited_net: 0, credited_tax: 0, credited_gross: 0 }, // 5000.5 → 5001; 3333.67 → 3334
      { date: "2026-03-02", room_revenue: 10_000, net: 10_000, tax: 1_000, gross: 11_000, adr: 3_333, revpar: 2_500, payments: 700, refunds: 0, credited_net: 0, credited_tax: 0, credited_gross: 0 }, // 3333.33 → 3333
      { date: "2026-03-03", room_revenue: 0, ...none, adr: 0, revpar: 0, payments: 0, refunds: 50, credited_net: 0, credited_tax: 0, credited_gross: 0 },
      { date: "2026-03-04", room_revenue: 0, ...none, adr: 0, revpar: 0, payments: 0, refunds: 0, credited_net: 0, credited_tax: 0, credited_gross: 0 },
    ]);
    // Totals: 20001 over 5 sold and 12 available; charged 19,001 + 2,000 = 21,001.
    expect(revenueTotals(rows, nights)).toEqual({ room_revenue: 20_001, net: 19_001, tax: 2_000, gross: 21_001, adr: 4_000, revpar: 1_667, payments: 700, refunds: 50, credited_net: 0, credited_tax: 0, credited_gross: 0 });
  });
});

describe("toCsv: formula-safe", () => {
  it("prefixes a text cell that a spreadsheet would run as a formula, and keeps negative numbers numbers", () => {
    const rows = [{ v: '=HYPERLINK("http://x.example")' }, { v: "+1" }, { v: "-2" }, { v: "@SUM(A1)" }, { v: "\tTab" }, { v: -3 }, { v: "a=b" }];
    const parsed = parse(toCsv(rows, ["v"]), { columns: true }) as { v: string }[];
    expect(parsed.map((r) => r.v)).toEqual(['\'=HYPERLINK("http://x.example")', "'+1", "'-2", "'@SUM(A1)", "'\tTab", "-3", "a=b"]);
  });
});
