import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, guests, reservations } from "@/db/schema";
import type { StaffRole } from "@/server/auth/users";
import { createCaller } from "@/server/trpc/routers/_app";
import { addDays } from "@/lib/dates";
import { setWalkInsWithoutEmail } from "@/server/properties/properties";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, type Caller } from "../support/hotel";

// Issue 23, item 2 ("Find anyone"): guests and reservations by any part of a name, e-mail,
// phone or reservation id (`search`), reservations in order of stay (`order=check_in`), both
// cursor-paged and tenant-scoped; walk-ins without an e-mail where the property allows it.

let h: Harness;
let live: Caller;
let hotel: { propertyId: string; today: string; roomTypeId: string; ratePlanId: string };
const ids = (res: { json: { data: { id: string }[] } }) => res.json.data.map((x) => x.id);

type Guest = { first_name: string; last_name: string; email?: string; phone?: string };
async function book(guest: Guest, checkIn: string, nights = 1, extra: Record<string, unknown> = {}, caller: Caller = live) {
  const body = bookingBody(hotel, checkIn, addDays(checkIn as never, nights), { guest, ...extra });
  return ok(await h.post("/v1/reservations", body, caller), 201);
}

/** Every page of a list, following `next_cursor`; then back again with `prev_cursor`. */
async function walk(path: string, caller: Caller = live) {
  const sep = path.includes("?") ? "&" : "?";
  const pages: { id: string; check_in?: string }[][] = [];
  let res = ok(await h.get(`${path}${sep}limit=2`, caller));
  pages.push(res.data);
  while (res.has_more) {
    res = ok(await h.get(`${path}${sep}limit=2&cursor=${res.next_cursor}`, caller));
    pages.push(res.data);
  }
  const back: { id: string }[][] = [];
  let prev = res.prev_cursor;
  while (prev) {
    const page = ok(await h.get(`${path}${sep}limit=2&cursor=${prev}`, caller));
    back.unshift(page.data);
    prev = page.has_more ? page.prev_cursor : null;
  }
  return { pages, forward: pages.flat(), backward: [...back.flat(), ...pages[pages.length - 1]] };
}

let walter: { id: string; guest: { id: string } };
let zoe: { id: string; guest: { id: string } };
let jesse: { id: string; guest: { id: string } };

beforeAll(async () => {
  h = await startHarness();
  live = { token: h.main.token };
  const base = await liveHotel(h, h.main.account.id);
  const type = await buildRoomType(h, live, base.propertyId, base.today as never, { rooms: 20, maxOccupancy: 2 });
  hotel = { propertyId: base.propertyId, today: base.today, ...type };
  walter = await book({ first_name: "Walter", last_name: "White", email: "heisenberg@example.com", phone: "+1 (505) 555-0142" }, addDays(base.today as never, 5));
  zoe = await book({ first_name: "Zoë", last_name: "Ångström", email: "zoe@example.se", phone: "+46 8 123 456" }, addDays(base.today as never, 2));
  jesse = await book({ first_name: "Jesse", last_name: "Pinkman", email: "cap.n.cook@example.com" }, addDays(base.today as never, 9));
});
afterAll(async () => h?.close());

describe("GET /v1/guests?search=", () => {
  it("finds a guest by any part of the name, e-mail or phone, in any case and without accents", async () => {
    const find = async (term: string) => ids(await h.get(`/v1/guests?search=${encodeURIComponent(term)}`));
    expect(await find("walt")).toEqual([walter.guest.id]);
    expect(await find("WHITE walter")).toEqual([walter.guest.id]); // every word, in any order
    expect(await find("heisen")).toEqual([walter.guest.id]);
    expect(await find("505 555-0142")).toEqual([walter.guest.id]); // the phone by its digits
    expect(await find("5550142")).toEqual([walter.guest.id]);
    expect(await find("zoe")).toEqual([zoe.guest.id]);
    expect(await find("ANGSTROM")).toEqual([zoe.guest.id]);
    expect(await find("Ångst")).toEqual([zoe.guest.id]);
    expect(await find("example.se")).toEqual([zoe.guest.id]);
    expect(await find("pinkman jesse")).toEqual([jesse.guest.id]);
    expect(await find("walter pinkman")).toEqual([]);
    // `%` and `_` are letters, not wildcards.
    expect(await find("%")).toEqual([]);
    expect(await find(",")).toEqual([]);
    expect(await find("cap_n")).toEqual([]);
    expect(await find("cap.n")).toEqual([jesse.guest.id]);
  });

  it("keeps the exact e-mail filter, alone or with a search", async () => {
    expect(ids(await h.get("/v1/guests?email=HEISENBERG%40example.com"))).toEqual([walter.guest.id]);
    expect(ids(await h.get("/v1/guests?email=heisenberg%40example.com&search=walter"))).toEqual([walter.guest.id]);
    expect(ids(await h.get("/v1/guests?email=heisenberg%40example.com&search=zoe"))).toEqual([]);
  });

  it("finds nobody of another account or of the sandbox", async () => {
    const other = await h.newAccount("Other Hotels");
    const otherCaller = { token: other.token };
    ok(await h.post("/v1/guests", { first_name: "Walter", last_name: "Black", email: "walter.black@example.com" }, otherCaller), 201);
    ok(await h.post("/v1/guests", { first_name: "Walter", last_name: "Grey", email: "walter.grey@example.com" }, { ...live, sandbox: true }), 201);
    expect(ids(await h.get("/v1/guests?search=walter"))).toEqual([walter.guest.id]);
    const theirs = ok(await h.get("/v1/guests?search=walter", otherCaller));
    expect(theirs.data.map((g: { last_name: string }) => g.last_name)).toEqual(["Black"]);
    const sandboxNames = ok(await h.get("/v1/guests?search=walter", { ...live, sandbox: true })).data.map((g: { last_name: string }) => g.last_name);
    expect(sandboxNames).toContain("Grey");
    expect(sandboxNames).not.toContain("White");
    expect(ids(await h.get("/v1/reservations?search=white", otherCaller))).toEqual([]);
  });

  it("pages a search over more than two pages without a gap or a repeat, both ways", async () => {
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      made.push(ok(await h.post("/v1/guests", { first_name: `Paige ${i}`, last_name: "Turner", email: `paige${i}@example.org` }), 201).id);
      // Guests that do not match, between the ones that do.
      ok(await h.post("/v1/guests", { first_name: "Other", last_name: `Person ${i}`, email: `other${i}@example.org` }), 201);
    }
    const { pages, forward, backward } = await walk("/v1/guests?search=turner");
    expect(pages.length).toBe(4);
    // Newest first, the contract's order for guests.
    expect(forward.map((g) => g.id)).toEqual([...made].reverse());
    expect(backward.map((g) => g.id)).toEqual(forward.map((g) => g.id));
    // A cursor is bound to its search.
    const first = ok(await h.get("/v1/guests?search=turner&limit=2"));
    expectError(await h.get(`/v1/guests?search=paige&limit=2&cursor=${first.next_cursor}`), 400, "invalid_cursor", "cursor");
  });

  it("refuses a bad search with the contract's error, changing nothing", async () => {
    const before = await h.db.select().from(guests);
    expectError(await h.get("/v1/guests?search="), 400, "parameter_invalid", "search");
    expectError(await h.get("/v1/guests?search=%20%20"), 400, "parameter_invalid", "search");
    expectError(await h.get(`/v1/guests?search=${"a".repeat(201)}`), 400, "parameter_invalid", "search");
    expectError(await h.get("/v1/guests?q=walter"), 400, "parameter_invalid", "q"); // unknown query parameters are 400 (contract §2)
    expect(await h.db.select().from(guests)).toEqual(before);
  });
});

describe("GET /v1/reservations?search= and order=check_in", () => {
  it("finds a reservation by its guest's name, e-mail or phone, or any part of its id", async () => {
    const find = async (term: string) => ids(await h.get(`/v1/reservations?search=${encodeURIComponent(term)}`));
    expect(await find("pinkm")).toEqual([jesse.id]);
    expect(await find("zoë")).toEqual([zoe.id]);
    expect(await find("HEISENBERG@")).toEqual([walter.id]);
    expect(await find("555 0142")).toEqual([walter.id]);
    // The middle of the id, in another case, as a clerk might read it from a confirmation.
    const fragment = walter.id.slice(6, 14);
    const swapped = fragment.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
    expect(await find(fragment)).toEqual([walter.id]);
    expect(await find(swapped)).toEqual([walter.id]);
    expect(await find(walter.id)).toEqual([walter.id]);
    // Search works with the other filters.
    expect(ids(await h.get(`/v1/reservations?search=zoe&status=cancelled`))).toEqual([]);
    expect(ids(await h.get(`/v1/reservations?search=zoe&property_id=${hotel.propertyId}&status=confirmed`))).toEqual([zoe.id]);
  });

  it("orders by arrival date, then id, and pages that order with a search, both ways", async () => {
    // Booked out of stay order: the creation order is not the stay order.
    const days = [7, 3, 3, 12, 1, 3, 8];
    const made = [];
    for (const [i, d] of days.entries()) made.push(await book({ first_name: "Stay", last_name: `Order${i}`, email: `stay${i}@example.net` }, addDays(hotel.today as never, d)));
    const expected = made
      .map((r) => ({ id: r.id as string, check_in: r.check_in as string }))
      .sort((a, b) => (a.check_in === b.check_in ? (a.id < b.id ? -1 : 1) : a.check_in < b.check_in ? -1 : 1));
    const { pages, forward, backward } = await walk("/v1/reservations?search=stay&order=check_in");
    expect(pages.length).toBe(4);
    expect(forward.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(backward.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    // Without a search: every reservation of the account, in stay order, with no repeat.
    const all = (await walk("/v1/reservations?order=check_in")).forward;
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    expect(all.length).toBe(3 + days.length);
    const keys = all.map((r) => `${r.check_in} ${r.id}`);
    expect(keys).toEqual([...keys].sort());
    // The default stays newest first; a cursor of one order is refused in the other.
    const created = ok(await h.get("/v1/reservations?search=stay&limit=2"));
    expect(created.data.map((r: { id: string }) => r.id)).toEqual([made[6].id, made[5].id]);
    expectError(await h.get(`/v1/reservations?search=stay&order=check_in&limit=2&cursor=${created.next_cursor}`), 400, "invalid_cursor", "cursor");
  });

  it("refuses bad parameters with the contract's error", async () => {
    expectError(await h.get("/v1/reservations?search="), 400, "parameter_invalid", "search");
    expectError(await h.get("/v1/reservations?order=stay"), 400, "parameter_invalid", "order");
    expectError(await h.get("/v1/reservations?order="), 400, "parameter_invalid", "order");
  });
});

describe("walk-ins without an e-mail", () => {
  const walkIn = (guest: Guest, source = "walk_in") => bookingBody(hotel, hotel.today as never, addDays(hotel.today as never, 1), { guest, source });

  it("are refused where the property does not allow them (the default), changing nothing", async () => {
    const property = ok(await h.get(`/v1/properties/${hotel.propertyId}`));
    expect(property.walk_ins_without_email).toBe(false);
    const before = await h.db.select().from(reservations);
    expectError(await h.post("/v1/reservations", walkIn({ first_name: "Saul", last_name: "Goodman", phone: "505 555 0199" })), 422, "parameter_missing", "guest.email");
    expect(await h.db.select().from(reservations)).toEqual(before);
  });

  it("are booked where it is allowed; the guest is found again by phone and last name", async () => {
    await setWalkInsWithoutEmail({ db: h.db, tenant: { accountId: h.main.account.id, livemode: true, propertyIds: null }, actor: null, id: hotel.propertyId, allowed: true });
    expect(ok(await h.get(`/v1/properties/${hotel.propertyId}`)).walk_ins_without_email).toBe(true);

    // Only a walk-in may come without an e-mail.
    expectError(await h.post("/v1/reservations", walkIn({ first_name: "Saul", last_name: "Goodman" }, "phone")), 422, "parameter_missing", "guest.email");
    // An e-mail that is there must still be an e-mail.
    expectError(await h.post("/v1/reservations", walkIn({ first_name: "Saul", last_name: "Goodman", email: "" })), 422, "parameter_invalid", "guest.email");

    const first = ok(await h.post("/v1/reservations", walkIn({ first_name: "Saul", last_name: "Goodman", phone: "+1 505 555 0199" })), 201);
    expect(first.guest.email).toBeNull();
    expect(first.source).toBe("walk_in");
    const guest = ok(await h.get(`/v1/guests/${first.guest.id}`));
    expect(guest).toMatchObject({ email: null, phone: "+1 505 555 0199", first_name: "Saul", last_name: "Goodman" });

    // Same phone (written differently) and last name (other case): the same guest.
    const again = ok(await h.post("/v1/reservations", walkIn({ first_name: "Saul", last_name: "GOODMAN", phone: "(1) 505-555-0199" })), 201);
    expect(again.guest.id).toBe(first.guest.id);
    // Another last name on that phone, or no phone at all: a guest of their own each time.
    const kim = ok(await h.post("/v1/reservations", walkIn({ first_name: "Kim", last_name: "Wexler", phone: "+1 505 555 0199" })), 201);
    expect(kim.guest.id).not.toBe(first.guest.id);
    const anon1 = ok(await h.post("/v1/reservations", walkIn({ first_name: "Mike", last_name: "Ehrmantraut" })), 201);
    const anon2 = ok(await h.post("/v1/reservations", walkIn({ first_name: "Mike", last_name: "Ehrmantraut" })), 201);
    expect(anon1.guest.id).not.toBe(anon2.guest.id);

    // Found like anyone else, by name or phone.
    expect(ids(await h.get("/v1/guests?search=goodman"))).toEqual([first.guest.id]);
    expect(ids(await h.get("/v1/reservations?search=goodman&order=check_in"))).toEqual([first.id, again.id].sort());
    expect((await h.db.select().from(guests).where(eq(guests.id, first.guest.id)))[0].emailKey).toBeNull();
  });

  it("is switched by owners and managers, not the front desk, and the switch is audited", async () => {
    const as = (role: StaffRole) =>
      createCaller({
        db: h.db,
        session: { user: { id: `usr_${role}`, accountId: h.main.account.id, role, name: role, email: `${role}@walkin.example` }, expires: new Date(Date.now() + 3_600_000).toISOString() },
        livemode: true,
      });
    await expect(as("front_desk").properties.setWalkInsWithoutEmail({ id: hotel.propertyId, allowed: false })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const after = await as("manager").properties.setWalkInsWithoutEmail({ id: hotel.propertyId, allowed: false });
    expect(after.walk_ins_without_email).toBe(false);
    const [entry] = await h.db.select().from(auditLog).where(eq(auditLog.objectId, hotel.propertyId));
    expect(entry).toMatchObject({ action: "property.updated", before: expect.objectContaining({ walk_ins_without_email: true }), after: expect.objectContaining({ walk_ins_without_email: false }) });
    expectError(await h.post("/v1/reservations", walkIn({ first_name: "Saul", last_name: "Goodman", phone: "+1 505 555 0199" })), 422, "parameter_missing", "guest.email");
  });
});
