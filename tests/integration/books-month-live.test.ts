import { afterAll, beforeAll, describe, it } from "vitest";
import { startHarness, type Harness } from "../support/harness";
import { simulateMonth } from "../support/month";

// Issue 35, "done when": a month of a hotel through the API, reconciled in every direction
// (tests/support/month.ts says what is done and what is checked), live, on a clock the test holds across the audit hour and a change to summer time.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe("a month of a hotel, live", () => {
  it("reconciles folios, reports, the flash of every day, money, inventory, rooms and invoices", { timeout: 900_000 }, () =>
    simulateMonth(h, "live"),
  );
});
