import type { HousekeepingStatus } from "@/db/schema";

/**
 * The housekeeping status machine (contract §6): dirty → clean → inspected; clean or inspected
 * back to dirty; any status → out-of-order; out-of-order → dirty.
 */
export const housekeepingTransitions: Record<HousekeepingStatus, HousekeepingStatus[]> = {
  dirty: ["clean", "out-of-order"],
  clean: ["inspected", "dirty", "out-of-order"],
  inspected: ["dirty", "out-of-order"],
  "out-of-order": ["dirty"],
};

export const canMove = (from: HousekeepingStatus, to: HousekeepingStatus) => housekeepingTransitions[from].includes(to);
