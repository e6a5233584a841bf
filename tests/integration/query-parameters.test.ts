import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isOriginPath } from "@/server/http/openapi-origin";
import { addDays, todayIn } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { ok, sandboxProperty, type Caller } from "../support/hotel";

// Issue #14, points 8 and 10: numbers in the query string are parsed strictly (`offset=` is not 0,
// `limit=` is not "too small"), every fault is said in plain words, and date-time parameters take
// RFC 3339 offsets. Driven by the served document, so a new parameter is covered when it appears.

let h: Harness;
const sandbox: Caller = { token: "", sandbox: true };
type Param = { name: string; in: string; required?: boolean; schema: { type?: string | string[]; format?: string; enum?: string[] } };
type QueryOp = { path: string; params: Param[] };
let getOps: QueryOp[] = [];
let propertyId = "";
let today = "";
const validatorWords = /NaN|received|Invalid input|Too small|Too big|expected number|Infinity/;

/** A valid value for a parameter, so that only the one under test is at fault. */
function validFor(param: Param): string {
  if (param.name === "property_id") return propertyId;
  if (param.schema.format === "date") return param.name.match(/to|check_out/) ? addDays(today as never, 2) : addDays(today as never, 1);
  if (param.schema.format === "date-time") return "2026-01-01T00:00:00Z";
  if (param.schema.enum) return param.schema.enum[0];
  if (param.schema.type === "integer") return "2";
  return "x";
}

function url(op: QueryOp, override: Record<string, string>): string {
  const query = new URLSearchParams();
  for (const p of op.params) if (p.required && !(p.name in override)) query.set(p.name, validFor(p));
  for (const [k, v] of Object.entries(override)) query.set(k, v);
  return `/v1${op.path.replace(/\{\w+\}/g, "none")}?${query}`;
}

beforeAll(async () => {
  h = await startHarness();
  sandbox.token = h.main.token;
  const property = await sandboxProperty(h, h.main.token);
  propertyId = property.id;
  today = todayIn(property.timezone);
  const document = ok(await h.get("/v1/openapi.json"));
  for (const [path, item] of Object.entries(document.paths as Record<string, { get?: { parameters?: Param[] } }>)) {
    if (isOriginPath(item)) continue;
    const params = (item.get?.parameters ?? []).filter((p) => p.in === "query");
    if (params.length) getOps.push({ path, params });
  }
  getOps = getOps.sort((a, b) => a.path.localeCompare(b.path));
});
afterAll(async () => h?.close());

describe("integer query parameters", () => {
  it("the document has them: limit on every list, offset on /payments, adults and children on /availability", () => {
    const integers = getOps.flatMap((op) => op.params.filter((p) => p.schema.type === "integer").map((p) => `${op.path} ${p.name}`));
    expect(integers).toContain("/payments offset");
    expect(integers).toContain("/payments limit");
    expect(integers).toContain("/availability adults");
    expect(integers).toContain("/availability children");
    expect(integers.filter((i) => i.endsWith(" limit")).length).toBeGreaterThanOrEqual(12);
  });

  it("empty or non-integer: 400 parameter_invalid 'must be an integer', on each one", { timeout: 60_000 }, async () => {
    let checked = 0;
    for (const op of getOps) {
      for (const param of op.params.filter((p) => p.schema.type === "integer")) {
        for (const bad of ["", "abc", "1.5", "1e1", " 7", "7 ", "0x10", "+3", "2,3", "١"]) {
          const res = await h.get(url(op, { [param.name]: bad }), sandbox);
          const where = `${op.path}?${param.name}=${JSON.stringify(bad)}`;
          expect(res.status, `${where}: ${res.text}`).toBe(400);
          const error = expectError(res, 400, "parameter_invalid", param.name);
          expect(error.message, where).toBe(`Invalid query parameter '${param.name}': must be an integer.`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("an integer out of range says its bound in plain words", async () => {
    const cases: [string, string, string][] = [
      ["/v1/payments?limit=0", "limit", "must be at least 1."],
      ["/v1/payments?limit=101", "limit", "must be at most 100."],
      ["/v1/payments?offset=-1", "offset", "must be at least 0."],
      ["/v1/payments?offset=99999999999999999999", "offset", "must be at most 10000."],
      [`/v1/availability?property_id=${propertyId}&check_in=${addDays(today as never, 1)}&check_out=${addDays(today as never, 2)}&adults=0`, "adults", "must be at least 1."],
    ];
    for (const [path, param, words] of cases) {
      const error = expectError(await h.get(path, sandbox), 400, "parameter_invalid", param);
      expect(error.message).toBe(`Invalid query parameter '${param}': ${words}`);
    }
  });

  it("valid integers still work: offset=0 and limit=3 on /payments, adults on /availability", async () => {
    const page = await h.get("/v1/payments?offset=0&limit=3", sandbox);
    expect(ok(page).data.length).toBeLessThanOrEqual(3);
    expect(page.headers.get("deprecation")).toBe("true");
    ok(await h.get(url({ path: "/availability", params: getOps.find((o) => o.path === "/availability")!.params }, { adults: "2", children: "0" }), sandbox));
  });
});

describe("no query fault shows the validator's wording", () => {
  it("each query parameter of each GET, given values it refuses", { timeout: 60_000 }, async () => {
    let refused = 0;
    for (const op of getOps) {
      for (const param of op.params) {
        for (const bad of ["", "abc", "-1", "1.5", "2026-13-45", "zzz\u00e9"]) {
          const res = await h.get(url(op, { [param.name]: bad }), sandbox);
          if (res.status !== 400) continue; // a free-text filter may take it
          refused++;
          expect(res.json.error.message, `${op.path}?${param.name}=${bad}`).not.toMatch(validatorWords);
        }
      }
    }
    expect(refused).toBeGreaterThan(200);
  });
});

describe("date-time query parameters take RFC 3339 offsets", () => {
  it("created_gte/created_lte on /events and updated_since on /reservations: Z and any offset name the same instant", async () => {
    ok(await h.post("/v1/guests", { first_name: "Ofelia", last_name: "Offset", email: "ofelia.offset@example.com" }, sandbox), 201);
    const latest = ok(await h.get("/v1/events?limit=1", sandbox)).data[0] as { created_at: string };
    expect(latest).toBeTruthy();
    // A whole second before the newest event, written in UTC, in +01:00, in -05:30 and in +00:00.
    const instant = new Date(Math.floor((Date.parse(latest.created_at) - 1000) / 1000) * 1000);
    const shifted = (minutes: number) => {
      const local = new Date(instant.getTime() + minutes * 60_000).toISOString().slice(0, 19);
      const sign = minutes < 0 ? "-" : "+";
      const abs = Math.abs(minutes);
      return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
    };
    const forms = [instant.toISOString(), shifted(60), shifted(-330), shifted(0)];
    const answers: string[][] = [];
    for (const form of forms) {
      const res = await h.get(`/v1/events?limit=100&created_gte=${encodeURIComponent(form)}`, sandbox);
      answers.push(ok(res).data.map((e: { id: string }) => e.id));
    }
    expect(answers[0].length).toBeGreaterThan(0);
    for (const a of answers) expect(a).toEqual(answers[0]);
    // created_lte in +01:00 at that instant excludes the newest event, as its UTC form does.
    const before = ok(await h.get(`/v1/events?limit=100&created_lte=${encodeURIComponent(shifted(60))}`, sandbox)).data.map((e: { id: string }) => e.id);
    expect(before).toEqual(ok(await h.get(`/v1/events?limit=100&created_lte=${encodeURIComponent(instant.toISOString())}`, sandbox)).data.map((e: { id: string }) => e.id));
    expect(before).not.toContain(answers[0][0]);

    const reservations = ok(await h.get(`/v1/reservations?limit=100&updated_since=${encodeURIComponent("2000-01-01T01:00:00+01:00")}`, sandbox));
    expect(reservations.data.length).toBeGreaterThan(0);
    // Answers stay in UTC with Z.
    for (const r of reservations.data as { created_at: string; updated_at: string }[]) {
      expect(r.created_at).toMatch(/Z$/);
      expect(r.updated_at).toMatch(/Z$/);
    }
    const future = encodeURIComponent("2099-01-01T01:00:00+01:00");
    expect(ok(await h.get(`/v1/reservations?updated_since=${future}`, sandbox)).data).toEqual([]);
  });

  it("a cursor made with one spelling of the instant works with another", async () => {
    for (const n of [1, 2]) ok(await h.post("/v1/guests", { first_name: "Cursor", last_name: `Offset${n}`, email: `cursor.offset${n}@example.com` }, sandbox), 201);
    const first = ok(await h.get(`/v1/events?limit=1&created_gte=${encodeURIComponent("2000-01-01T00:00:00Z")}`, sandbox));
    expect(first.next_cursor).toBeTruthy();
    ok(await h.get(`/v1/events?limit=1&created_gte=${encodeURIComponent("2000-01-01T01:00:00+01:00")}&cursor=${first.next_cursor}`, sandbox));
  });

  it("refuses a time without an offset or with a bad one, in plain words", async () => {
    for (const bad of ["2026-01-01T00:00:00", "2026-01-01", "2026-01-01T00:00:00+25:00", "yesterday", ""]) {
      for (const [path, name] of [["/v1/events", "created_gte"], ["/v1/events", "created_lte"], ["/v1/reservations", "updated_since"]]) {
        const error = expectError(await h.get(`${path}?${name}=${encodeURIComponent(bad)}`, sandbox), 400, "parameter_invalid", name);
        expect(error.message).toContain("must be a date-time in RFC 3339 form");
        expect(error.message).not.toMatch(validatorWords);
      }
    }
  });

  it("the document says so", async () => {
    const document = ok(await h.get("/v1/openapi.json"));
    const param = document.paths["/events"].get.parameters.find((p: Param) => p.name === "created_gte");
    expect(param.schema).toMatchObject({ type: "string", format: "date-time" });
    expect(param.schema.description).toContain("offset");
  });
});
