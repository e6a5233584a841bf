import { describe, expect, it } from "vitest";
import { housekeepingStatuses, type HousekeepingStatus } from "@/db/schema";
import { canMove, housekeepingTransitions } from "@/server/housekeeping/transitions";

/** Contract §6, written out pair by pair: dirty → clean → inspected; clean|inspected → dirty; any → out-of-order; out-of-order → dirty. */
const allowed: [HousekeepingStatus, HousekeepingStatus][] = [
  ["dirty", "clean"],
  ["clean", "inspected"],
  ["clean", "dirty"],
  ["inspected", "dirty"],
  ["dirty", "out-of-order"],
  ["clean", "out-of-order"],
  ["inspected", "out-of-order"],
  ["out-of-order", "dirty"],
];

describe("the housekeeping status machine", () => {
  it("covers exactly the four statuses", () => {
    expect(Object.keys(housekeepingTransitions).sort()).toEqual([...housekeepingStatuses].sort());
  });

  for (const from of housekeepingStatuses) {
    for (const to of housekeepingStatuses) {
      const expected = allowed.some(([a, b]) => a === from && b === to);
      it(`${from} → ${to}: ${expected ? "allowed" : "refused"}`, () => {
        expect(canMove(from, to)).toBe(expected);
      });
    }
  }

  it("never allows staying in the same status", () => {
    for (const s of housekeepingStatuses) expect(housekeepingTransitions[s]).not.toContain(s);
  });
});
