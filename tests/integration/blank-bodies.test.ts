import { sql } from "drizzle-orm";
import { isOriginPath } from "@/server/http/openapi-origin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { addDays, todayIn } from "@/server/dates";
import { expectError, type HttpAnswer } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { ok, sandboxProperty, type Caller } from "../support/hotel";

// Issue #14, point 9: a blank or non-JSON body never overwrites data. `trim()` empties far more than
// JSON's whitespace (VT, FF, NBSP, BOM), and a blank body used to read as `{}`, so a PUT of
// preferences with `\x0b\x0b` reset them. Every PUT, PATCH and create is tried with each of those
// bodies, and the whole database must be exactly as it was.

let h: Harness;
const sandbox: Caller = { token: "", sandbox: true };
type Op = { method: string; path: string };
let ops: Op[] = [];
const ids: Record<string, string> = {};

/** One digest per table: any row added, removed or changed shows. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = rowsOf<{ table_name: string }>(
    await h.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`),
  ).map((t) => t.table_name);
  const digests: Record<string, string> = {};
  for (const table of tables) {
    const [row] = rowsOf<{ d: string | null }>(await h.db.execute(sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as d from ${sql.identifier(table)} t`));
    digests[table] = row.d ?? "";
  }
  return digests;
}

/** A raw request: `body` as bytes, so fetch adds no Content-Type of its own. */
async function send(op: Op, body: string, contentType?: string): Promise<HttpAnswer> {
  const path = op.path.replace(/\{id\}/, () => {
    const id = ids[op.path];
    if (!id) throw new Error(`No object for ${op.method} ${op.path}: add one to the setup`);
    return id;
  });
  const headers: Record<string, string> = { authorization: `Bearer ${sandbox.token}`, "service-environment": "sandbox" };
  if (contentType) headers["content-type"] = contentType;
  const res = await fetch(`${h.baseUrl}/v1${path}`, { method: op.method.toUpperCase(), headers, body: new TextEncoder().encode(body) });
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
  Object.assign(ids, {
    "/taxes/{id}": tax.id,
    "/guests/{id}": guest.id,
    "/guests/{id}/preferences": guest.id,
    "/reservations/{id}": reservation.id,
    "/folios/{id}/charges": reservation.folio_id,
    "/properties/{id}": property.id,
    "/room_types/{id}": (await first("/v1/room_types")).id,
    "/rooms/{id}": room.id,
    "/rate_plans/{id}": (await first("/v1/rate_plans")).id,
    "/housekeeping/assignments/{id}": assignment.id,
    "/webhook_endpoints/{id}": endpoint.id,
  });
  // Every PUT, PATCH and create the served document lists.
  const document = ok(await h.get("/v1/openapi.json"));
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
    if (isOriginPath(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (method === "put" || method === "patch" || (method === "post" && operation.responses["201"])) ops.push({ method, path });
    }
  }
  ops = ops.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
});
afterAll(async () => h?.close());

const invalid = { "two vertical tabs": "\x0b\x0b", "a form feed": "\f", "a no-break space": "\u00a0", "a byte-order mark": "\ufeff", "a BOM before {}": "\ufeff{}" };

describe("blank and non-JSON bodies on every PUT, PATCH and create", () => {
  it("the document lists them all, and each has an object to aim at", () => {
    expect(ops.length).toBeGreaterThanOrEqual(20);
    expect(ops).toContainEqual({ method: "put", path: "/guests/{id}/preferences" });
    for (const op of [{ method: "post", path: "/properties" }, { method: "patch", path: "/properties/{id}" }, { method: "post", path: "/rooms/range" }]) expect(ops).toContainEqual(op);
    for (const op of ops) if (op.path.includes("{id}")) expect(ids[op.path], op.path).toBeTruthy();
  });

  it("each answers an error and changes nothing", { timeout: 120_000 }, async () => {
    const before = await snapshot();
    for (const op of ops) {
      const where = `${op.method.toUpperCase()} ${op.path}`;
      // Nothing at all, or nothing but JSON's own whitespace: the required body is missing.
      for (const body of ["", " \t\r\n"]) {
        for (const type of [undefined, "application/json"]) {
          const res = await send(op, body, type);
          expect(res.status, `${where} ${JSON.stringify(body)} ${type}`).toBe(422);
          expectError(res, 422, "parameter_missing", null);
        }
      }
      // Characters `trim()` drops but JSON does not allow: not JSON.
      for (const [what, body] of Object.entries(invalid)) {
        const res = await send(op, body, "application/json");
        expect(res.status, `${where} with ${what}`).toBe(400);
        expectError(res, 400, "invalid_json");
      }
      // A declared non-JSON type is 415 whatever the body, an empty or a valid one included.
      for (const body of ["", "{}", "\x0b\x0b"]) {
        for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
          expectError(await send(op, body, type), 415, "unsupported_content_type", "Content-Type");
        }
      }
      // A body sent with no type at all is refused too.
      expectError(await send(op, "{}"), 415, "unsupported_content_type", "Content-Type");
    }
    expect(await snapshot()).toEqual(before);
    // The case that was found: the guest's preferences survived.
    expect(ok(await h.get(`/v1/guests/${ids["/guests/{id}"]}/preferences`, sandbox))).toMatchObject({
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
    const cancel = (id: string): Op => ({ method: "post", path: `/reservations/${id}/cancel` });
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
    for (const op of ops) expect(document.paths[op.path][op.method].requestBody.required, `${op.method} ${op.path}`).toBe(true);
  });
});
