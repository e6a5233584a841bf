import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guests, reservations } from "@/db/schema";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { ok, sandboxProperty } from "../support/hotel";

// Errors that say what to do: a 404 for an object that lives in the account's other environment
// names that environment and the header that reaches it (never across accounts), and a 422 names
// every field at fault in one answer.

let h: Harness;
let other: Awaited<ReturnType<Harness["newAccount"]>>;
let liveGuest: { id: string };
let sandboxReservation: { id: string };
let sandboxPropertyId: string;

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount("Other Hotels");
  liveGuest = ok(await h.post("/v1/guests", { first_name: "Live", last_name: "Guest", email: "live.guest@example.com" }), 201);
  sandboxPropertyId = (await sandboxProperty(h, h.main.token)).id;
  const page = ok(await h.get(`/v1/reservations?property_id=${sandboxPropertyId}&status=confirmed&limit=1`, { sandbox: true }));
  sandboxReservation = page.data[0];
  expect(sandboxReservation?.id).toMatch(/^res_/);
}, 120_000);
afterAll(async () => h?.close());

const toSandbox = "It exists in this account's sandbox environment: send `Service-Environment: sandbox` to reach it.";
const toLive = "It exists in this account's live environment: send `Service-Environment: live` (or no `Service-Environment` header) to reach it.";

describe("404 for an object of the account's other environment", () => {
  it("from live, names the sandbox and its header", async () => {
    const res = await h.get(`/v1/reservations/${sandboxReservation.id}`);
    expectError(res, 404, "resource_missing", "id");
    expect(res.json.error.message).toBe(`No such reservation: '${sandboxReservation.id}' in the live environment. ${toSandbox}`);
    const property = await h.get(`/v1/properties/${sandboxPropertyId}`);
    expectError(property, 404, "resource_missing", "id");
    expect(property.json.error.message).toBe(`No such property: '${sandboxPropertyId}' in the live environment. ${toSandbox}`);
  });

  it("from the sandbox, names live and how to reach it", async () => {
    const res = await h.get(`/v1/guests/${liveGuest.id}`, { sandbox: true });
    expectError(res, 404, "resource_missing", "id");
    expect(res.json.error.message).toBe(`No such guest: '${liveGuest.id}' in the sandbox environment. ${toLive}`);
  });

  it("for an id in the body, keeps the body's param", async () => {
    const before = await h.db.select({ n: count() }).from(guests);
    const res = await h.post("/v1/payments", { reservation_id: sandboxReservation.id, payment_method: { type: "cash" } });
    expectError(res, 404, "resource_missing", "reservation_id");
    expect(res.json.error.message).toBe(`No such reservation: '${sandboxReservation.id}' in the live environment. ${toSandbox}`);
    expect(await h.db.select({ n: count() }).from(guests)).toEqual(before);
  });

  it("gives another account the plain 404 in either environment: nothing crosses accounts", async () => {
    for (const sandbox of [false, true]) {
      const guest = await h.get(`/v1/guests/${liveGuest.id}`, { token: other.token, sandbox });
      expectError(guest, 404, "resource_missing", "id");
      expect(guest.json.error.message).toBe(`No such guest: '${liveGuest.id}'`);
      const reservation = await h.get(`/v1/reservations/${sandboxReservation.id}`, { token: other.token, sandbox });
      expectError(reservation, 404, "resource_missing", "id");
      expect(reservation.json.error.message).toBe(`No such reservation: '${sandboxReservation.id}'`);
    }
  });

  it("says nothing more for an id that exists nowhere", async () => {
    const res = await h.get("/v1/guests/gst_doesnotexist000000000000", { sandbox: true });
    expectError(res, 404, "resource_missing", "id");
    expect(res.json.error.message).toBe("No such guest: 'gst_doesnotexist000000000000'");
  });
});

describe("every parameter at fault in one answer", () => {
  it("an empty reservation names each of its seven required fields", async () => {
    const before = await h.db.select({ n: count() }).from(reservations);
    const res = await h.post("/v1/reservations", {});
    expectError(res, 422, "parameter_missing", "property_id");
    // Contract §6: property_id, guest, check_in, check_out, room_type_id, rate_plan_id, adults.
    const required = ["property_id", "guest", "check_in", "check_out", "room_type_id", "rate_plan_id", "adults"];
    expect(res.json.error.errors).toEqual(required.map((param) => ({ code: "parameter_missing", param, message: `Missing required parameter: '${param}'.` })));
    expect(res.json.error.message).toBe("Missing required parameter: 'property_id'. 6 more parameters are at fault: see `errors`.");
    expect(await h.db.select({ n: count() }).from(reservations)).toEqual(before);
  });

  it("mixes missing, invalid and unknown fields, each with its own code and dotted param", async () => {
    const before = await h.db.select({ n: count() }).from(guests);
    const res = await h.post("/v1/guests", { first_name: "Ada", email: "not-an-address", shoe_size: 42, nickname: "A" });
    expect(res.status, res.text).toBe(422);
    const errors = res.json.error.errors as { code: string; param: string; message: string }[];
    expect(errors.map((e) => [e.code, e.param]).sort()).toEqual(
      [
        ["parameter_missing", "last_name"],
        ["parameter_invalid", "email"],
        ["parameter_unknown", "shoe_size"],
        ["parameter_unknown", "nickname"],
      ].sort(),
    );
    for (const e of errors) expect(e.message).toContain(`'${e.param}'`);
    // The error itself is the first fault, repeated in `errors`.
    expect(errors[0]).toEqual({ code: res.json.error.code, param: res.json.error.param, message: expect.any(String) });
    expect(res.json.error.message.startsWith(errors[0].message)).toBe(true);
    expect(await h.db.select({ n: count() }).from(guests)).toEqual(before);
  });

  it("query faults are one 400 that lists each", async () => {
    const res = await h.get("/v1/reservations?limit=abc&status=sleeping");
    expectError(res, 400, "parameter_invalid", "status");
    expect(res.json.error.errors.map((e: { param: string }) => e.param).sort()).toEqual(["limit", "status"]);
    expect(res.json.error.errors.every((e: { code: string }) => e.code === "parameter_invalid")).toBe(true);
  });

  it("a single fault has no `errors` list: the envelope is the contract's", async () => {
    const res = await h.post("/v1/guests", { first_name: "Ada", last_name: "Lovelace" });
    expectError(res, 422, "parameter_missing", "email");
    expect(res.json.error).not.toHaveProperty("errors");
    expect(res.json.error.message).toBe("Missing required parameter: 'email'.");
  });
});
