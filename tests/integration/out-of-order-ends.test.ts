import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "@/db/schema";
import { addDays, todayIn } from "@/lib/dates";
import { startHarness, type Harness } from "../support/harness";
import { ok, sandboxProperty } from "../support/hotel";

// Issue 35, point 4: room status and inventory are one truth. A block's end returns its room to
// service (dirty, to be cleaned) at the night audit that opens that day, as inventory already
// sells it then; and a block put on after the audit has closed today starts on the open business
// day, never in the closed one.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe("an out-of-order block", () => {
  it("starts on the open business day and ends with its room back in service at the audit that opens its end", { timeout: 120_000 }, async () => {
    const sandbox = { token: h.main.token, sandbox: true };
    ok(await h.post("/v1/sandbox/reset", {}, sandbox));
    const property = await sandboxProperty(h, h.main.token);
    const calendar = todayIn(property.timezone);
    ok(await h.post("/v1/sandbox/advance_day", { property_id: property.id }, sandbox));
    const business = addDays(calendar, 1);
    const occupancy = async (date: string) => ok(await h.get(`/v1/reports/occupancy?property_id=${property.id}&from=${date}&to=${addDays(date, 1)}`, sandbox)).data[0];
    const closedDay = await occupancy(calendar);
    const openDay = await occupancy(business);

    const rooms = ok(await h.get(`/v1/rooms?property_id=${property.id}&limit=100`, sandbox)).data as { id: string; housekeeping_status: string; occupied: boolean; out_of_order_until: string | null }[];
    const seededBlock = rooms.find((r) => r.housekeeping_status === "out-of-order")!;
    expect(seededBlock.out_of_order_until! > addDays(business, 1)).toBe(true);
    const room = rooms.find((r) => !r.occupied && r.housekeeping_status === "clean")!;
    ok(await h.post(`/v1/rooms/${room.id}/housekeeping`, { status: "out-of-order", reason: "Leak under the sink", until: addDays(business, 1) }, sandbox));
    // The closed day is as its audit left it; the open day has one room fewer to sell.
    expect(await occupancy(calendar)).toEqual(closedDay);
    expect((await occupancy(business)).rooms_available).toBe(openDay.rooms_available - 1);

    // The audit closing the business day opens the block's end: the room is back, dirty, with no reason left.
    ok(await h.post("/v1/sandbox/advance_day", { property_id: property.id }, sandbox));
    expect(ok(await h.get(`/v1/rooms/${room.id}`, sandbox))).toMatchObject({ housekeeping_status: "dirty", out_of_order_reason: null, out_of_order_until: null });
    expect(ok(await h.get(`/v1/rooms/${seededBlock.id}`, sandbox)).housekeeping_status).toBe("out-of-order");
    const [changed] = await h.db
      .select()
      .from(events)
      .where(and(eq(events.type, "housekeeping.status_changed"), sql`${events.object}->>'id' = ${room.id}`, sql`${events.object}->>'previous_status' = 'out-of-order'`));
    expect(changed.object).toMatchObject({ housekeeping_status: "dirty" });
    // Cleaned, it can be let again.
    ok(await h.post(`/v1/rooms/${room.id}/housekeeping`, { status: "clean" }, sandbox));
  });
});
