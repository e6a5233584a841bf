import { isOriginPath } from "@/server/http/openapi-origin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "@/lib/dates";
import { expectError, type HttpAnswer } from "../support/assertions";
import { aimedPath, tableDigests } from "../support/every-operation";
import { startHarness, type Harness } from "../support/harness";
import { countEvents, ok, sandboxProperty, type Caller } from "../support/hotel";

// Issue #14, point 9, and issue 27 ("a blank or malformed body to any of them changes nothing"):
// a blank or non-JSON body never changes anything. `trim()` empties far more than JSON's
// whitespace (VT, FF, NBSP, BOM), and a blank body used to read as `{}`, so a PUT of preferences
// with `\x0b\x0b` reset them. Every operation of the served document that reads a body (every
// POST, PUT and PATCH, so a new one is covered without a word here) is tried with each of those
// bodies; each answers the contract's error, and the whole database, the events and every object's
// GET must be exactly as they were.

let h: Harness;
const sandbox: Caller = { token: "", sandbox: true };
type Op = { method: string; path: string; required: boolean };
let ops: Op[] = [];
/** The object a path's `{id}` names, by the collection before it (`/reservations/{id}/no_show` → a reservation). */
const byCollection: Record<string, string> = {};
/** Where each aimed-at object is read back: its GET, or for a folio its reservation's. */
const reads = new Map<string, string>();

/** One digest per table: any row added, removed or changed shows. */
const snapshot = () => tableDigests(h.db);

/** The operation's path with `{id}` the object of its collection. */
function aimed(path: string): string {
  return aimedPath(path, byCollection);
}

/** A raw request: `body` as bytes, so fetch adds no Content-Type of its own. */
async function send(op: Pick<Op, "method" | "path">, body: string, contentType?: string): Promise<HttpAnswer> {
  const headers: Record<string, string> = { authorization: `Bearer ${sandbox.token}`, "service-environment": "sandbox" };
  if (contentType) headers["content-type"] = contentType;
  const res = await fetch(`${h.baseUrl}/v1${aimed(op.path)}`, { method: op.method.toUpperCase(), headers, body: new TextEncoder().encode(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  h = await startHarness();
  sandbox.token = h.main.token;
  const property = await sandboxProperty(h, h.main.token);
  const first = async (path: string) => ok(await h.get(path, sandbox)).data[0] as Record<string, string>;
  const guest = await first("/v1/guests");
  ok(await h.put(`/v1/guests/${guest.id}/preferences`, { allergies: ["peanuts"], room: { floor: "high", quiet: true }, loyalty: { program: "Harbor", tier: "gold", points: 1200 } }, sandbox));
  const reservation = await first("/v1/reservations?status=confirmed");
  const endpoint = ok(await h.post("/v1/webhook_endpoints", { url: "https://hooks.example.com/innkeep", enabled_events: ["*"] }, sandbox), 201);
  const room = await first(`/v1/rooms?property_id=${property.id}`);
  const assignment = ok(
    await h.post("/v1/housekeeping/assignments", { property_id: property.id, date: addDays(todayIn(property.timezone), 1), room_id: room.id, assignee: "Ana" }, sandbox),
    201,
  );
  const tax = ok(await h.post("/v1/taxes", { property_id: property.id, name: "City tax", kind: "per_person_per_night", amount: 250 }, sandbox), 201);
  const payment = await first(`/v1/payments?reservation_id=${(await first("/v1/reservations?status=checked_out")).id}`);
  const rooms = [1, 2].map(() => ({ room_type_id: reservation.room_type_id, rate_plan_id: reservation.rate_plan_id, adults: 1 }));
  const group = ok(
    await h.post("/v1/groups", { property_id: property.id, guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" }, check_in: addDays(reservation.check_in, 30), check_out: addDays(reservation.check_in, 31), rooms }, sandbox),
    201,
  );
  Object.assign(byCollection, {
    properties: property.id,
    room_types: (await first("/v1/room_types")).id,
    rooms: room.id,
    rate_plans: (await first("/v1/rate_plans")).id,
    reservations: reservation.id,
    folios: reservation.folio_id,
    groups: group.id,
    guests: guest.id,
    payments: payment.id,
    invoices: (await first("/v1/invoices")).id,
    assignments: assignment.id,
    taxes: tax.id,
    webhook_endpoints: endpoint.id,
  });
  // Every operation the served document lists that reads a body: every POST, PUT and PATCH.
  const document = ok(await h.get("/v1/openapi.json"));
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { requestBody?: { required?: boolean } }>>)) {
    if (isOriginPath(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (method === "post" || method === "put" || method === "patch") ops.push({ method, path, required: operation.requestBody?.required === true });
    }
    // The object each path aims at, read back by its GET (a folio through its reservation).
    const at = path.slice(0, path.indexOf("{id}") + 4);
    const takesBody = ["post", "put", "patch"].some((m) => item[m]);
    if (takesBody && path.includes("{id}") && !reads.has(at)) reads.set(at, document.paths[at]?.get ? aimed(at) : at === "/folios/{id}" ? `/reservations/${reservation.id}/folio` : "");
  }
  ops = ops.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}, 120_000);
afterAll(async () => h?.close());

const invalid = {
  "two vertical tabs": "\x0b\x0b",
  "a form feed": "\f",
  "a no-break space": "\u00a0",
  "a byte-order mark": "\ufeff",
  "a BOM before {}": "\ufeff{}",
  "cut-off JSON": '{"name": "Harbor',
  "an object never closed": "{",
  "two objects": "{}{}",
};

describe("blank and non-JSON bodies on every operation that reads a body", () => {
  it("the document lists them all, the new actions too, and each has an object to aim at", () => {
    expect(ops.length).toBeGreaterThanOrEqual(50);
    const has = (method: string, path: string) => expect(ops.map((o) => `${o.method} ${o.path}`)).toContain(`${method} ${path}`);
    has("put", "/guests/{id}/preferences");
    for (const path of ["/properties", "/rooms/range", "/reservations/{id}/move_room", "/reservations/{id}/late_check_out", "/reservations/{id}/no_show", "/rooms/{id}/retire", "/folios/{id}/invoice", "/sandbox/advance_day"]) has("post", path);
    has("patch", "/properties/{id}");
    for (const op of ops) expect(() => aimed(op.path), op.path).not.toThrow();
  });

  it("each answers the contract's error and changes nothing: not the database, not the events, not one object's GET", { timeout: 300_000 }, async () => {
    const before = await snapshot();
    const events = await countEvents(h, h.main.account.id);
    const objects = new Map<string, string>();
    for (const path of reads.values()) if (path) objects.set(path, (await h.get(`/v1${path}`, sandbox)).text);
    for (const op of ops) {
      const where = `${op.method.toUpperCase()} ${op.path}`;
      // Nothing at all, or nothing but JSON's own whitespace: a required body is missing. (An optional
      // one, an action's, reads as `{}`: "bodiless actions" below.)
      if (op.required) {
        for (const body of ["", " \t\r\n"]) {
          for (const type of [undefined, "application/json"]) {
            const res = await send(op, body, type);
            expect(res.status, `${where} ${JSON.stringify(body)} ${type}`).toBe(422);
            expectError(res, 422, "parameter_missing", null);
          }
        }
      }
      // Characters `trim()` drops but JSON does not allow, and JSON cut short: not JSON.
      for (const [what, body] of Object.entries(invalid)) {
        const res = await send(op, body, "application/json");
        expect(res.status, `${where} with ${what}`).toBe(400);
        expectError(res, 400, "invalid_json");
      }
      // A declared non-JSON type is 415 whatever the body, an empty or a valid one included.
      for (const body of ["", "{}", "\x0b\x0b"]) {
        for (const type of ["text/plain", "application/x-www-form-urlencoded", "text/plain; charset=utf-8"]) {
          expectError(await send(op, body, type), 415, "unsupported_content_type", "Content-Type");
        }
      }
      // A body sent with no type at all is refused too.
      expectError(await send(op, "{}"), 415, "unsupported_content_type", "Content-Type");
    }
    expect(await snapshot()).toEqual(before);
    expect(await countEvents(h, h.main.account.id)).toBe(events);
    for (const [path, text] of objects) expect((await h.get(`/v1${path}`, sandbox)).text, path).toBe(text);
    // The case that was found: the guest's preferences survived.
    expect(ok(await h.get(`/v1/guests/${byCollection.guests}/preferences`, sandbox))).toMatchObject({
      allergies: ["peanuts"],
      room: { floor: "high", quiet: true },
      loyalty: { program: "Harbor", tier: "gold", points: 1200 },
    });
  });
});

describe("bodiless actions", () => {
  it("read an empty body, or JSON whitespace, as {}; anything else blank is still not JSON", async () => {
    const property = await sandboxProperty(h, h.main.token);
    const reservations = ok(await h.get(`/v1/reservations?status=confirmed&property_id=${property.id}&limit=3`, sandbox)).data as { id: string }[];
    expect(reservations.length).toBe(3);
    const cancel = (id: string) => ({ method: "post", path: `/reservations/${id}/cancel` });
    expect(ok(await send(cancel(reservations[0].id), "")).status).toBe("cancelled");
    expect(ok(await send(cancel(reservations[1].id), " \n", "application/json")).status).toBe("cancelled");
    expectError(await send(cancel(reservations[2].id), "\x0b", "application/json"), 400, "invalid_json");
    expectError(await send(cancel(reservations[2].id), "", "text/plain"), 415, "unsupported_content_type", "Content-Type");
    expect(ok(await h.get(`/v1/reservations/${reservations[2].id}`, sandbox)).status).toBe("confirmed");
  });

  it("the document marks their body optional, and every create, PUT and PATCH body required", async () => {
    const document = ok(await h.get("/v1/openapi.json"));
    expect(document.paths["/reservations/{id}/cancel"].post.requestBody.required).toBe(false);
    expect(document.paths["/reservations/{id}/check_out"].post.requestBody.required).toBe(false);
    for (const op of ops.filter((o) => o.method !== "post" || document.paths[o.path].post.responses["201"])) {
      expect(document.paths[op.path][op.method].requestBody.required, `${op.method} ${op.path}`).toBe(true);
    }
  });
});
