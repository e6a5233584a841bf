import type { Executor } from "@/db/client";
import { createHotel, sandboxHotel } from "./hotel";

/** Every account's sandbox starts as the same hotel (contract §8). */
export async function seedSandbox({ db, accountId }: { db: Executor; accountId: string }) {
  return createHotel(db, { accountId, livemode: false, propertyIds: null }, sandboxHotel);
}
