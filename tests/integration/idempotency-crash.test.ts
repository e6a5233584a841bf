import type { ChildProcess } from "node:child_process";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { idempotencyKeys, reservations } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { onPostgres } from "../support/database";
import { startAppScript } from "../support/child-processes";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel } from "../support/hotel";

// Issue 26, point 2: a process that dies between an idempotent request's work and its stored
// answer. The child (tests/support/crash-before-commit.ts) runs the real /v1 app on this test's
// PostgreSQL database and SIGKILLs itself when that request's transaction is about to commit,
// after the booking's statements and the answer's. The retry must book exactly once. Before
// this change the booking committed on its own, and the retry found the key in flight (409)
// for five minutes, then booked a second time.

let h: Harness;
let child: ChildProcess | undefined;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  if (child?.exitCode === null) child.kill("SIGKILL");
  await h?.close();
});


it.skipIf(!onPostgres)("a process killed before its transaction commits leaves nothing; the retry books exactly once", async () => {
  const hotel = await liveHotel(h, h.main.account.id);
  const caller = { token: h.main.token };
  const setup = { propertyId: hotel.propertyId, ...(await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 3 })) };
  const body = bookingBody(setup, addDays(hotel.today, 3), addDays(hotel.today, 5), { guest: { first_name: "Crash", last_name: "Test", email: "crash@example.com" } });
  const headers = { authorization: `Bearer ${h.main.token}`, "content-type": "application/json", "idempotency-key": "power-cut" };
  const countBooked = async () =>
    Number((await h.db.select({ n: sql<number>`count(*)::int` }).from(reservations).where(eq(reservations.propertyId, setup.propertyId)))[0].n);

  const started = await startAppScript("tests/support/crash-before-commit.ts", h.databaseUrl!);
  child = started.process;
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child!.once("exit", (_code, signal) => resolve(signal)));
  const cut = await fetch(`http://127.0.0.1:${started.port}/v1/reservations`, { method: "POST", headers, body: JSON.stringify(body) }).then(
    (res) => `answered ${res.status}`,
    () => "no answer",
  );
  expect(cut).toBe("no answer");
  expect(await exited).toBe("SIGKILL");

  // Nothing of the booking or of the key survived the cut.
  expect(await countBooked()).toBe(0);
  expect(await h.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "power-cut"))).toEqual([]);

  // The client retries (against another process on the same database): booked once, then replayed.
  const retry = await h.post("/v1/reservations", body, { headers: { "idempotency-key": "power-cut" } });
  expect(retry.status, retry.text).toBe(201);
  expect(retry.headers.get("idempotent-replayed")).toBeNull();
  const again = await h.post("/v1/reservations", body, { headers: { "idempotency-key": "power-cut" } });
  expect(again.status).toBe(201);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(again.json.id).toBe(retry.json.id);
  expect(await countBooked()).toBe(1);
});
