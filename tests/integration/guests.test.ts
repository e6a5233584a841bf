import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, guestPreferences, guests } from "@/db/schema";
import { createCaller } from "@/server/trpc/routers/_app";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";

// Guests and their preferences (contract §6), over HTTP, with the database as the witness.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const snapshot = async () => ({
  guests: await h.db.select().from(guests).orderBy(guests.id),
  preferences: await h.db.select().from(guestPreferences).orderBy(guestPreferences.guestId),
});

const ok = (res: { status: number; text: string; json?: unknown }, status = 200) => {
  expect(res.status, res.text).toBe(status);
  return res.json;
};

async function createGuest(body: Record<string, unknown>, sandbox = false) {
  const res = await h.post("/v1/guests", body, { sandbox });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

describe("guests", () => {
  it("creates, retrieves and lists a guest", async () => {
    const created = await createGuest({ first_name: "  Ada ", last_name: "Lovelace", email: "Ada@Example.com", phone: "+44 20 7946 0000" });
    expect(created).toMatchObject({
      object: "guest",
      livemode: true,
      first_name: "Ada",
      last_name: "Lovelace",
      email: "Ada@Example.com",
      phone: "+44 20 7946 0000",
    });
    expect(created.id).toMatch(/^gst_[0-9A-Za-z]+$/);
    expect(Date.parse(created.created_at)).not.toBeNaN();
    expect(created.updated_at).toBe(created.created_at);

    const fetched = await h.get(`/v1/guests/${created.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.json).toEqual(created);

    // The e-mail filter is exact but case-insensitive.
    const listed = await h.get("/v1/guests?email=ada%40example.COM");
    expect(listed.json.data).toEqual([created]);
    expect((await h.get("/v1/guests?email=ada%40example.co")).json.data).toEqual([]);

    const sandbox = await createGuest({ first_name: "Sandy", last_name: "Box", email: "sandy@example.com" }, true);
    expect(sandbox.livemode).toBe(false);
    expect(sandbox.phone).toBeNull();
  });

  it("keeps an optional postal address: trimmed, empty lines dropped, replaced whole, null removes it; a wrong one changes nothing", async () => {
    const guest = await createGuest({ first_name: "Maria", last_name: "Skłodowska", email: "maria.address@example.com", address: { line1: " ul. Freta 16 ", line2: "", city: "Warszawa", country: "pl" } });
    expect(guest.address).toEqual({ line1: "ul. Freta 16", city: "Warszawa", country: "PL" });
    expect((await h.get(`/v1/guests/${guest.id}`)).json.address).toEqual(guest.address);
    expect((await createGuest({ first_name: "No", last_name: "Address", email: "no.address@example.com" })).address).toBeNull();

    const before = await snapshot();
    expectError(await h.patch(`/v1/guests/${guest.id}`, { address: { line1: "x".repeat(201) } }), 422, "parameter_invalid", "address.line1");
    expectError(await h.patch(`/v1/guests/${guest.id}`, { address: { country: "Poland" } }), 422, "parameter_invalid", "address.country");
    expectError(await h.patch(`/v1/guests/${guest.id}`, { address: { street: "Freta" } }), 422, "parameter_unknown", "address.street");
    expectError(await h.patch(`/v1/guests/${guest.id}`, { address: "ul. Freta 16" }), 422, "parameter_invalid", "address");
    expect(await snapshot()).toEqual(before);

    // Sent, it replaces the whole address; an address of empty lines is none; null removes it.
    const moved = await h.patch(`/v1/guests/${guest.id}`, { address: { line1: "Rue Cuvier 12", postal_code: "75005", city: "Paris", country: "FR" } });
    expect(moved.json.address).toEqual({ line1: "Rue Cuvier 12", postal_code: "75005", city: "Paris", country: "FR" });
    expect((await h.patch(`/v1/guests/${guest.id}`, { first_name: "Marie" })).json.address).toEqual(moved.json.address);
    expect((await h.patch(`/v1/guests/${guest.id}`, { address: { line1: " " } })).json.address).toBeNull();
    await h.patch(`/v1/guests/${guest.id}`, { address: { city: "Paris" } });
    expect((await h.patch(`/v1/guests/${guest.id}`, { address: null })).json.address).toBeNull();
  });

  it("PATCH changes only what it names; null clears the phone", async () => {
    const guest = await createGuest({ first_name: "Grace", last_name: "Hopper", email: "grace@example.com", phone: "555 0100" });
    const renamed = await h.patch(`/v1/guests/${guest.id}`, { first_name: "Amazing Grace" });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ ...guest, first_name: "Amazing Grace", updated_at: renamed.json.updated_at });
    expect(Date.parse(renamed.json.updated_at)).toBeGreaterThanOrEqual(Date.parse(guest.updated_at));

    const cleared = await h.patch(`/v1/guests/${guest.id}`, { phone: null });
    expect(cleared.json.phone).toBeNull();
    expect(cleared.json.first_name).toBe("Amazing Grace");

    const unchanged = await h.patch(`/v1/guests/${guest.id}`, {});
    expect(unchanged.status).toBe(200);
    expect({ ...unchanged.json, updated_at: null }).toEqual({ ...cleared.json, updated_at: null });

    // Its own e-mail in another case is not a duplicate.
    const recased = await h.patch(`/v1/guests/${guest.id}`, { email: "GRACE@example.com" });
    expect(recased.status).toBe(200);
    expect(recased.json.email).toBe("GRACE@example.com");
    expect((await h.get(`/v1/guests/${guest.id}`)).json).toEqual(recased.json);
  });

  it("a change writes guest.updated with the guest as it now is; an unchanged or refused PATCH writes none", async () => {
    const guest = await createGuest({ first_name: "Mary", last_name: "Somerville", email: "mary@example.com" });
    const updates = async () =>
      (await h.db.select().from(events).where(eq(events.type, "guest.updated"))).filter((e) => (e.object as { id: string }).id === guest.id);
    const changed = await h.patch(`/v1/guests/${guest.id}`, { phone: "+44 20 7946 0018" });
    expect(changed.status, changed.text).toBe(200);
    const [event] = await updates();
    expect(await updates()).toHaveLength(1);
    expect(event.object).toEqual(changed.json);
    expect(event.propertyId).toBeNull();
    expect(event.livemode).toBe(true);

    expect((await h.patch(`/v1/guests/${guest.id}`, { phone: "+44 20 7946 0018" })).status).toBe(200);
    expectError(await h.patch(`/v1/guests/${guest.id}`, { phone: "not a phone" }), 422, "parameter_invalid", "phone");
    expect(await updates()).toHaveLength(1);
  });

  it("a duplicate e-mail is 422 on email, on create and on update, case-insensitively", async () => {
    const alan = await createGuest({ first_name: "Alan", last_name: "Turing", email: "alan@example.com" });
    const joan = await createGuest({ first_name: "Joan", last_name: "Clarke", email: "joan@example.com" });
    const before = await snapshot();
    const created = await h.post("/v1/guests", { first_name: "Other", last_name: "Alan", email: "ALAN@example.com" });
    const error = expectError(created, 422, "parameter_invalid", "email");
    expect(error.message).toContain(alan.id);
    expectError(await h.patch(`/v1/guests/${joan.id}`, { email: "Alan@Example.com" }), 422, "parameter_invalid", "email");
    expect(await snapshot()).toEqual(before);
  });

  it("every wrong request changes nothing", async () => {
    const guest = await createGuest({ first_name: "Kathleen", last_name: "Booth", email: "kathleen@example.com" });
    await h.put(`/v1/guests/${guest.id}/preferences`, { allergies: ["latex"], room: { quiet: true } });
    const before = await snapshot();
    const wrong = [
      await h.post("/v1/guests", { first_name: "", last_name: "X", email: "x1@example.com" }),
      await h.post("/v1/guests", { first_name: "X", last_name: "X", email: "x2@example.com", phone: "not a phone" }),
      await h.post("/v1/guests", { first_name: "X", last_name: "X", email: "x3@example.com", vip: true }),
      await h.post("/v1/guests", { first_name: null, last_name: "X", email: "x4@example.com" }),
      await h.request("POST", "/v1/guests", { rawBody: '{"first_name":"X","last_name":"X","email":"x5@example.com"', headers: { "content-type": "application/json" } }),
      await h.patch(`/v1/guests/${guest.id}`, { first_name: "   " }),
      await h.patch(`/v1/guests/${guest.id}`, { email: "nope" }),
      await h.patch(`/v1/guests/${guest.id}`, { last_name: "Booth", id: "gst_other" }),
      await h.patch(`/v1/guests/${guest.id}`, { created_at: "2020-01-01T00:00:00Z" }),
      await h.patch("/v1/guests/gst_missing", { first_name: "Ghost" }),
      await h.put(`/v1/guests/${guest.id}/preferences`, { allergies: "latex" }),
      await h.put(`/v1/guests/${guest.id}/preferences`, { room: { smoking: null } }),
      await h.put(`/v1/guests/${guest.id}/preferences`, { room: null }),
      await h.patch(`/v1/guests/${guest.id}/preferences`, { room: { floor: "basement" } }),
      await h.patch(`/v1/guests/${guest.id}/preferences`, { loyalty: { points: -1 } }),
      await h.patch(`/v1/guests/${guest.id}/preferences`, { loyalty: { points: 1.5 } }),
      await h.patch(`/v1/guests/${guest.id}/preferences`, { allergies: Array.from({ length: 51 }, (_, i) => `a${i}`) }),
      await h.patch(`/v1/guests/${guest.id}/preferences`, { room: { quiet: false }, pets: ["dog"] }),
    ];
    for (const res of wrong) {
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.json.error.request_id).toBe(res.headers.get("service-request-id"));
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("preferences", () => {
  let id: string;
  const prefs = async () => {
    const res = await h.get(`/v1/guests/${id}/preferences`);
    expect(res.status).toBe(200);
    return res.json;
  };

  beforeAll(async () => {
    id = (await createGuest({ first_name: "Margaret", last_name: "Hamilton", email: "margaret@example.com" })).id;
  });

  it("start empty, with updated_at null", async () => {
    expect(await prefs()).toEqual({ object: "guest_preferences", guest_id: id, livemode: true, allergies: [], room: {}, loyalty: {}, updated_at: null });
  });

  it("PUT replaces the whole record", async () => {
    const full = {
      allergies: ["peanuts", "penicillin"],
      room: { bed: "king", floor: "high", smoking: false, quiet: true, accessible: false, notes: "Away from the lift" },
      loyalty: { program: "Innkeep Rewards", tier: "gold", number: "IR-1", points: 1200 },
    };
    const put = await h.put(`/v1/guests/${id}/preferences`, full);
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ object: "guest_preferences", guest_id: id, ...full });
    expect(Date.parse(put.json.updated_at)).not.toBeNaN();
    expect(await prefs()).toEqual(put.json);

    // Whatever the new body leaves out is gone.
    const replaced = await h.put(`/v1/guests/${id}/preferences`, { room: { smoking: false } });
    expect(replaced.json).toMatchObject({ allergies: [], room: { smoking: false }, loyalty: {} });
    expect(await prefs()).toEqual(replaced.json);
    const emptied = await h.put(`/v1/guests/${id}/preferences`, {});
    expect(emptied.json).toMatchObject({ allergies: [], room: {}, loyalty: {} });
    expect(emptied.json.updated_at).not.toBeNull();
  });

  it("PATCH merges room and loyalty key by key, null removes a key, allergies are replaced whole", async () => {
    await h.put(`/v1/guests/${id}/preferences`, { allergies: ["peanuts"], room: { bed: "twin", smoking: false }, loyalty: { program: "IR", points: 10 } });

    let res = await h.patch(`/v1/guests/${id}/preferences`, { room: { floor: "low" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ allergies: ["peanuts"], room: { bed: "twin", smoking: false, floor: "low" }, loyalty: { program: "IR", points: 10 } });

    res = await h.patch(`/v1/guests/${id}/preferences`, { room: { smoking: null, bed: "king" }, loyalty: { tier: "silver", points: null } });
    expect(res.json.room).toEqual({ bed: "king", floor: "low" });
    expect(res.json.loyalty).toEqual({ program: "IR", tier: "silver" });
    expect(res.json.allergies).toEqual(["peanuts"]);

    res = await h.patch(`/v1/guests/${id}/preferences`, { allergies: ["gluten", "shellfish"] });
    expect(res.json.allergies).toEqual(["gluten", "shellfish"]);
    expect(res.json.room).toEqual({ bed: "king", floor: "low" });

    res = await h.patch(`/v1/guests/${id}/preferences`, { allergies: [] });
    expect(res.json.allergies).toEqual([]);

    // Removing a key that is not there is fine; an empty PATCH changes nothing, not even the time.
    res = await h.patch(`/v1/guests/${id}/preferences`, { room: { quiet: null } });
    expect(res.json.room).toEqual({ bed: "king", floor: "low" });
    const before = await prefs();
    const noop = await h.patch(`/v1/guests/${id}/preferences`, {});
    expect(noop.json).toEqual(before);
    expect(await prefs()).toEqual(noop.json);
  });

  it("PATCH on a guest without preferences starts from empty", async () => {
    const fresh = (await createGuest({ first_name: "Radia", last_name: "Perlman", email: "radia@example.com" })).id;
    const res = await h.patch(`/v1/guests/${fresh}/preferences`, { loyalty: { program: "IR" }, room: { bed: null } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ guest_id: fresh, allergies: [], room: {}, loyalty: { program: "IR" } });
  });

  it("sandbox guests have sandbox preferences", async () => {
    const sandboxGuest = await createGuest({ first_name: "Sand", last_name: "Box", email: "prefs@example.com" }, true);
    const res = await h.put(`/v1/guests/${sandboxGuest.id}/preferences`, { allergies: ["dust"] }, { sandbox: true });
    expect(res.status).toBe(200);
    expect(res.json.livemode).toBe(false);
    const [row] = await h.db.select().from(guestPreferences).where(eq(guestPreferences.guestId, sandboxGuest.id));
    expect(row.livemode).toBe(false);
    expect(row.accountId).toBe(h.main.account.id);
  });
});

describe("guest.preferences_updated", () => {
  /** The preferences events written for a guest, oldest first. */
  const written = async (guestId: string) =>
    (await h.db.select().from(events).where(eq(events.type, "guest.preferences_updated")))
      .filter((e) => (e.object as { guest_id: string }).guest_id === guestId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const current = async (guestId: string, sandbox = false) => {
    const res = await h.get(`/v1/guests/${guestId}/preferences`, { sandbox });
    expect(res.status, res.text).toBe(200);
    return res.json;
  };

  it("is written once per PUT or PATCH that changes them, with the preferences exactly as GET then answers", async () => {
    const guest = await createGuest({ first_name: "Annie", last_name: "Easley", email: "annie.prefs@example.com" });
    expect(await written(guest.id)).toEqual([]);

    const put = await h.put(`/v1/guests/${guest.id}/preferences`, { allergies: ["tree nuts"], room: { floor: "high", quiet: true }, loyalty: { program: "Harbor", number: "HB-4471", points: 300 } });
    expect(put.status, put.text).toBe(200);
    let list = await written(guest.id);
    expect(list).toHaveLength(1);
    expect(list[0].object).toEqual(await current(guest.id));
    expect(list[0].object).toEqual({
      object: "guest_preferences",
      guest_id: guest.id,
      livemode: true,
      allergies: ["tree nuts"],
      room: { floor: "high", quiet: true },
      loyalty: { program: "Harbor", number: "HB-4471", points: 300 },
      updated_at: put.json.updated_at,
    });
    expect(list[0]).toMatchObject({ accountId: h.main.account.id, livemode: true, propertyId: null });

    // A PATCH merges: the event carries the whole record after it, not the patch.
    const patch = await h.patch(`/v1/guests/${guest.id}/preferences`, { allergies: ["tree nuts", "sesame"], loyalty: { points: null } });
    expect(patch.status, patch.text).toBe(200);
    list = await written(guest.id);
    expect(list).toHaveLength(2);
    expect(list[1].object).toEqual(await current(guest.id));
    expect(list[1].object).toMatchObject({ allergies: ["tree nuts", "sesame"], room: { floor: "high", quiet: true }, loyalty: { program: "Harbor", number: "HB-4471" } });
    expect((list[1].object as { loyalty: object }).loyalty).not.toHaveProperty("points");
    // The event is listed under /v1/events like any other, with its envelope.
    const listed = (await h.get("/v1/events?type=guest.preferences_updated&limit=100")).json.data.filter((e: { data: { object: { guest_id: string } } }) => e.data.object.guest_id === guest.id);
    expect(listed.map((e: { id: string }) => e.id).sort()).toEqual(list.map((e) => e.id).sort());
    expect(listed[0]).toMatchObject({ object: "event", type: "guest.preferences_updated", livemode: true, property_id: null });

    // The same record again, an empty PATCH, a PATCH of values already there: nothing changes, no event.
    expect((await h.put(`/v1/guests/${guest.id}/preferences`, { allergies: ["tree nuts", "sesame"], room: { floor: "high", quiet: true }, loyalty: { program: "Harbor", number: "HB-4471" } })).status).toBe(200);
    expect((await h.patch(`/v1/guests/${guest.id}/preferences`, {})).status).toBe(200);
    expect((await h.patch(`/v1/guests/${guest.id}/preferences`, { room: { floor: "high" }, loyalty: { points: null } })).status).toBe(200);
    expect(await written(guest.id)).toHaveLength(2);

    // A PUT that empties them is a change too.
    const emptied = await h.put(`/v1/guests/${guest.id}/preferences`, {});
    list = await written(guest.id);
    expect(list).toHaveLength(3);
    expect(list[2].object).toEqual({ object: "guest_preferences", guest_id: guest.id, livemode: true, allergies: [], room: {}, loyalty: {}, updated_at: emptied.json.updated_at });
  });

  it("is written by the dashboard's preferences editor too, and in the sandbox for sandbox guests", async () => {
    const guest = await createGuest({ first_name: "Dorothy", last_name: "Vaughan", email: "dorothy.prefs@example.com" });
    const staff = createCaller({
      db: h.db,
      session: { user: { id: "usr_desk", accountId: h.main.account.id, role: "front_desk", name: "Desk", email: "desk@guests.example" }, expires: new Date(Date.now() + 3_600_000).toISOString() },
      livemode: true,
    });
    const saved = await staff.guests.preferences.replace({ guest_id: guest.id, allergies: ["shellfish"], room: {}, loyalty: {} });
    const merged = await staff.guests.preferences.merge({ guest_id: guest.id, room: { bed: "twin" } });
    const list = await written(guest.id);
    expect(list.map((e) => e.object)).toEqual([saved, merged]);
    expect(merged).toEqual(await current(guest.id));
    // Saving the editor unchanged writes nothing.
    await staff.guests.preferences.replace({ guest_id: guest.id, allergies: ["shellfish"], room: { bed: "twin" }, loyalty: {} });
    expect(await written(guest.id)).toHaveLength(2);

    const sandboxGuest = await createGuest({ first_name: "Sandra", last_name: "Prefs", email: "sandra.prefs@example.com" }, true);
    ok(await h.patch(`/v1/guests/${sandboxGuest.id}/preferences`, { allergies: ["latex"] }, { sandbox: true }));
    const [sandboxEvent] = await written(sandboxGuest.id);
    expect(sandboxEvent.livemode).toBe(false);
    expect(sandboxEvent.object).toEqual(await current(sandboxGuest.id, true));
    // Not in the live event log.
    const live = (await h.get("/v1/events?type=guest.preferences_updated&limit=100")).json.data;
    expect(live.some((e: { id: string }) => e.id === sandboxEvent.id)).toBe(false);
  });

  it("is not written for a refused request: bad input, an unknown guest, a key without the write scope, another account's guest", async () => {
    const guest = await createGuest({ first_name: "Mary", last_name: "Jackson", email: "mary.prefs@example.com" });
    ok(await h.put(`/v1/guests/${guest.id}/preferences`, { allergies: ["penicillin"] }));
    const before = { events: await written(guest.id), prefs: await current(guest.id) };
    expect(before.events).toHaveLength(1);
    const allEvents = async () => (await h.db.select({ id: events.id }).from(events)).length;
    const count = await allEvents();

    const readOnly = await h.keyWith(["reservations:read"]);
    const other = await h.newAccount("Other Prefs Hotels");
    expectError(await h.put(`/v1/guests/${guest.id}/preferences`, { allergies: "penicillin" }), 422, "parameter_invalid", "allergies");
    expectError(await h.patch(`/v1/guests/${guest.id}/preferences`, { room: { floor: "basement" } }), 422, "parameter_invalid", "room.floor");
    expectError(await h.patch(`/v1/guests/${guest.id}/preferences`, { allergies: ["ok"], pets: ["dog"] }), 422, "parameter_unknown", "pets");
    expectError(await h.request("PATCH", `/v1/guests/${guest.id}/preferences`, { rawBody: '{"allergies": ["nuts"]', headers: { "content-type": "application/json" } }), 400, "invalid_json");
    expectError(await h.patch(`/v1/guests/${guest.id}/preferences`, { allergies: ["nuts"] }, { sandbox: true }), 404, "resource_missing", "id");
    expectError(await h.put("/v1/guests/gst_doesnotexist/preferences", { allergies: ["nuts"] }), 404, "resource_missing", "id");
    expectError(await h.patch("/v1/guests/gst_doesnotexist/preferences", { allergies: ["nuts"] }), 404, "resource_missing", "id");
    expectError(await h.patch(`/v1/guests/${guest.id}/preferences`, { allergies: ["nuts"] }, { token: readOnly }), 403, "insufficient_scope");
    expectError(await h.put(`/v1/guests/${guest.id}/preferences`, { allergies: ["nuts"] }, { token: readOnly }), 403, "insufficient_scope");
    expectError(await h.patch(`/v1/guests/${guest.id}/preferences`, { allergies: ["nuts"] }, { token: other.token }), 404, "resource_missing", "id");
    expectError(await h.patch(`/v1/guests/${guest.id}/preferences`, { allergies: ["nuts"] }, { token: null }), 401, "missing_token");

    expect(await allEvents()).toBe(count);
    expect(await written(guest.id)).toEqual(before.events);
    expect(await current(guest.id)).toEqual(before.prefs);
  });
});
