import fc from "fast-check";
import { isOriginPath } from "@/server/http/openapi-origin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCodes, type ErrorCode } from "@/server/errors";
import { statusFits } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";

// Property-based: for every operation of the OpenAPI document (so operations added later are
// covered without touching this file), invalid requests of every kind are answered with the
// error envelope and a code of server/errors.ts, and never with a 5xx.

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  example?: unknown;
};
type Parameter = { name: string; in: "path" | "query" | "header"; required?: boolean; schema: Schema };
type Operation = { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

type FuzzRequest = {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body?: string;
};

/** Requests per file run, shared among the operations (each gets 10 to 40): the file stays fast as the API grows. */
const requestBudget = 800;
let h: Harness;
let doc: Document;
let token: string;
/** Real ids by prefix (`gst`, `prop`, …), so that some requests get past the lookup. */
const knownIds = new Map<string, string[]>();

beforeAll(async () => {
  h = await startHarness();
  // Limits out of the way: a 429 is a fine answer, but it would hide everything else.
  token = (await h.newAccount("Fuzz", "enterprise", { perSecond: 1_000_000, perMinute: 1_000_000 })).token; // every scope
  const res = await h.get("/v1/openapi.json", { token: null });
  expect(res.status).toBe(200);
  doc = res.json;
  // A guest in the sandbox, where the seeded hotel lives; then every list's ids.
  await h.post("/v1/guests", { first_name: "Fuzzy", last_name: "Guest", email: "fuzzy@example.com" }, { token, sandbox: true });
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!item.get || path.includes("{") || isOriginPath(item)) continue;
    const list = await h.get(`/v1${path}?limit=100`, { token, sandbox: true });
    for (const row of list.json?.data ?? []) {
      const prefix = typeof row?.id === "string" ? row.id.split("_")[0] : undefined;
      if (prefix) knownIds.set(prefix, [...(knownIds.get(prefix) ?? []), row.id]);
    }
  }
});
afterAll(async () => h?.close());

const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(doc.components.schemas[schema.$ref.split("/").pop()!]) : schema);

// ---- values -------------------------------------------------------------------------------

/** Text a database or a parser may choke on. */
const nastyText = fc.oneof(
  fc.constantFrom("", " ", "\u0000", "a\u0000b", "\ud800", "x\udc00y", "%00", "null", "undefined", "-1", "0", "1e309", "NaN", "true", "[]", "{}", "'; drop table guests; --", "🦄🦄", "é", "x".repeat(5000)),
  fc.string({ unit: "binary", maxLength: 40 }),
);
/**
 * The same, short enough for a URL: past Node's 16 KiB request-head limit Node itself answers
 * 431, before the app sees the request.
 */
const nastyUrlText = nastyText.map((t) => t.slice(0, 500));
/** Any JSON value. */
const anyJson = fc.jsonValue({ maxDepth: 3 });
/** A value of the wrong type for most fields. */
const wrongValue = fc.oneof(nastyText, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.array(anyJson, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 }));

/** A value that mostly fits `schema`: the starting point that mutations then break. */
function valueFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.anyOf || s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf)!.map((x) => valueFor(x, depth + 1)));
  if (s.allOf) return valueFor(s.allOf[0], depth + 1);
  if (s.enum) return fc.constantFrom(...s.enum);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const nonNull = types.filter((t) => t !== "null");
  const arbs = nonNull.map((type) => valueOfType(s, type, depth));
  if (types.includes("null")) arbs.push(fc.constant(null));
  return arbs.length ? fc.oneof(...arbs) : anyJson;
}

function valueOfType(s: Schema, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "string": {
      if (s.format === "email") return fc.tuple(fc.stringMatching(/^[a-z][a-z0-9.]{0,11}$/), fc.nat(1_000_000)).map(([local, n]) => `${local}${n}@example.com`);
      if (s.format === "date") return fc.date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (s.format === "date-time") return fc.date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }).map((d) => d.toISOString());
      const min = s.minLength ?? 0;
      const max = Math.min(s.maxLength ?? 30, min + 30);
      if (s.pattern) {
        const re = new RegExp(s.pattern);
        return fc.stringMatching(re).filter((x) => x.length >= min && x.length <= (s.maxLength ?? Infinity));
      }
      return fc.string({ minLength: Math.max(min, 1), maxLength: Math.max(max, 1) }).map((x) => (x.trim() ? x : `v${x}`));
    }
    case "integer":
      return fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 });
    case "number":
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "array":
      return depth > 4 ? fc.constant([]) : fc.array(valueFor(s.items ?? {}, depth + 1), { maxLength: Math.min(s.maxItems ?? 4, 4) });
    case "object": {
      const props = s.properties ?? {};
      if (depth > 4 || !Object.keys(props).length) return fc.constant({});
      const shape = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valueFor(v, depth + 1)]));
      return fc.record(shape, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return anyJson;
  }
}

/** Every place in a body schema a mutation can aim at: dotted path, and whether it is required. */
function fieldsOf(schema: Schema, prefix: string[] = [], depth = 0): { path: string[]; required: boolean }[] {
  const s = resolve(schema);
  const objectLike = [s, ...(s.anyOf ?? []), ...(s.oneOf ?? [])].map(resolve).find((x) => x.properties);
  if (!objectLike || depth > 3) return [];
  return Object.entries(objectLike.properties!).flatMap(([key, sub]) => [
    { path: [...prefix, key], required: (objectLike.required ?? []).includes(key) },
    ...fieldsOf(sub, [...prefix, key], depth + 1),
  ]);
}

function setAt(target: unknown, path: string[], value: unknown, remove = false): unknown {
  const root = target && typeof target === "object" && !Array.isArray(target) ? { ...(target as object) } : {};
  let node: Record<string, unknown> = root;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node[key] = next && typeof next === "object" && !Array.isArray(next) ? { ...(next as object) } : {};
    node = node[key] as Record<string, unknown>;
  }
  if (remove) delete node[path[path.length - 1]];
  else node[path[path.length - 1]] = value;
  return root;
}

// ---- requests -----------------------------------------------------------------------------

const printable = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 });

/** Each part of a request, right (so the request gets as far as the wrong part) or wrong. */
type Part<T> = { valid: fc.Arbitrary<T>; invalid: fc.Arbitrary<T> };

/** A real id for the parameter (by the prefix of its example), or segments no id could be. */
function pathValue(param: Parameter): Part<string> {
  const example = typeof param.schema?.example === "string" ? param.schema.example : undefined;
  const prefix = example?.split("_")[0];
  const real = prefix ? knownIds.get(prefix) ?? [] : [];
  const encode = (text: string) => Array.from(Buffer.from(text, "utf8"), (b) => `%${b.toString(16).padStart(2, "0")}`).join("");
  return {
    valid: real.length ? fc.constantFrom(...real) : fc.constant(example ?? "x"),
    invalid: fc.oneof(
      fc.constant(example ?? "x"), // well-formed, names nothing
      nastyUrlText.filter((t) => t.length > 0).map(encode),
      fc.constantFrom("%", "%zz", "%FF", "%C0%AF", "%2F", "a".repeat(65), "a".repeat(2000), "..%2F..", `${prefix ?? "x"}_%00`),
    ),
  };
}

function pathFor(template: string, op: Operation): Part<string> {
  const params = (op.parameters ?? []).filter((p) => p.in === "path");
  const parts = params.map(pathValue);
  const fill = (values: string[]) => `/v1${params.reduce((path, p, i) => path.replace(`{${p.name}}`, values[i]), template)}`;
  return {
    valid: fc.tuple(...parts.map((p) => p.valid)).map(fill),
    // At least one parameter wrong, the others right.
    invalid: parts.length
      ? fc.tuple(fc.nat(parts.length - 1), fc.tuple(...parts.map((p) => p.valid)), fc.tuple(...parts.map((p) => p.invalid))).map(([i, good, bad]) => fill(good.map((v, j) => (j === i ? bad[j] : v))))
      : fc.constant(fill([])),
  };
}

/** Query strings with wrong values, unknown names, `offset`, repeated names. */
function queryFor(op: Operation): Part<[string, string][]> {
  const params = (op.parameters ?? []).filter((p) => p.in === "query");
  const known = params.map((p) =>
    fc.tuple(fc.constant(p.name), fc.oneof(nastyUrlText, valueFor(p.schema).map(String), fc.constantFrom("abc", "1.5", "-1", "0", "101", "1e3", " 7", "0x10", "[]"))),
  );
  const entry = fc.oneof(
    ...(known.length ? [{ weight: 2, arbitrary: fc.oneof(...known) }] : []),
    { weight: 1, arbitrary: fc.tuple(fc.oneof(printable, fc.constantFrom("offset", "__proto__", "constructor", "expand[]", "")), nastyUrlText) },
  );
  return { valid: fc.constant([]), invalid: fc.array(entry, { minLength: 1, maxLength: 4 }) };
}

const contentTypes = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp", "application/xml", "application/json-patch+json", ""];

/** A body that is wrong in at least one way: its shape, its JSON, its Content-Type. */
function bodyFor(op: Operation, method: string): Part<{ body?: string; contentType?: string }> {
  if (method === "GET" || method === "HEAD") return { valid: fc.constant({}), invalid: fc.constant({}) };
  const schema = op.requestBody?.content["application/json"]?.schema;
  const base: fc.Arbitrary<unknown> = schema ? valueFor(schema) : fc.constant({});
  const fields = schema ? fieldsOf(schema) : [];
  const pick = fields.length ? fc.constantFrom(...fields) : fc.constant(undefined);
  const json = (contentType = "application/json") => (value: unknown) => ({ body: JSON.stringify(value), contentType });

  const mutated = fc.tuple(base, fc.array(fc.tuple(fc.nat(3), pick, wrongValue, fc.string({ minLength: 1, maxLength: 12 })), { minLength: 1, maxLength: 3 })).map(([value, mutations]) => {
    let v = value;
    for (const [kind, field, wrong, unknownKey] of mutations) {
      if (kind === 0 && field?.required) v = setAt(v, field.path, undefined, true); // a required field missing
      else if (kind === 1 || !field) v = setAt(v, [...(field?.path.slice(0, -1) ?? []), `x_${unknownKey}`], wrong); // an unknown field
      else if (kind === 2) v = setAt(v, field.path, wrong); // a wrong type or value
      else v = setAt(v, field.path, "\u0000"); // text the database cannot hold
    }
    return v;
  });
  return {
    valid: base.map(json()),
    invalid: fc.oneof(
      { weight: 5, arbitrary: mutated.map(json()) },
      { weight: 1, arbitrary: anyJson.map(json()) }, // JSON, but maybe not an object
      { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 60 }).filter((t) => !isJson(t)).map((body) => ({ body, contentType: "application/json" })) },
      { weight: 1, arbitrary: fc.tuple(base, fc.constantFrom(...contentTypes)).map(([v, type]) => json(type)(v)) },
      { weight: 1, arbitrary: fc.constant({}) }, // no body at all
    ),
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return text.trim() === "";
  }
}

/** The sandbox (where the seeded hotel is), a fresh Idempotency-Key on POST; or wrong ones. */
function headersFor(method: string): Part<Record<string, string>> {
  const post = method === "POST";
  const valid = fc.uuid().map((key) => ({ "service-environment": "sandbox", ...(post ? { "idempotency-key": key } : {}) }));
  const invalid = fc.oneof(
    fc.oneof(fc.constantFrom("LIVE", "test", "", "sandbox "), printable).map((env) => ({ "service-environment": env })),
    fc.oneof(fc.constantFrom("2020-01-01", "latest", "", "2025-9-1"), printable).map((version) => ({ "service-environment": "sandbox", "service-version": version })),
    ...(post ? [fc.oneof(fc.constantFrom("", "k".repeat(256), "clé"), printable).map((key) => ({ "service-environment": "sandbox", "idempotency-key": key }))] : []),
  );
  return { valid, invalid };
}

const partNames = ["path", "query", "headers", "body"] as const;

/** A request with one part wrong (sometimes all of them), the rest right. */
function requestFor(method: string, template: string, op: Operation): fc.Arbitrary<FuzzRequest> {
  const parts = { path: pathFor(template, op), query: queryFor(op), headers: headersFor(method), body: bodyFor(op, method) };
  const hasPathParams = template.includes("{");
  const takesBody = method !== "GET" && method !== "HEAD";
  const focuses = partNames.filter((p) => (p !== "path" || hasPathParams) && (p !== "body" || takesBody));
  const focus = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...focuses) }, { weight: 1, arbitrary: fc.constant("all" as const) });
  return focus
    .chain((f) => {
      const pick = <K extends keyof typeof parts>(k: K) => (f === k || f === "all" ? parts[k].invalid : parts[k].valid) as (typeof parts)[K]["valid"];
      return fc.record({ path: pick("path"), query: pick("query"), headers: pick("headers"), body: pick("body") });
    })
    .map(({ path, query, headers, body }) => ({
      method,
      path,
      query,
      headers: { ...headers, ...(body.contentType !== undefined ? { "content-type": body.contentType } : {}) },
      body: body.body,
    }));
}

// ---- the property -------------------------------------------------------------------------

async function send(req: FuzzRequest) {
  const search = req.query.length ? `?${new URLSearchParams(req.query)}` : "";
  const body = req.body === undefined ? undefined : req.body && req.headers["content-type"] === "" ? new TextEncoder().encode(req.body) : req.body;
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name, v]) => !(name === "content-type" && v === "")));
  const res = await fetch(`${h.baseUrl}${req.path}${search}`, { method: req.method, headers: { ...headers, authorization: `Bearer ${token}` }, body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

function expectWellFormedAnswer(req: FuzzRequest, res: Awaited<ReturnType<typeof send>>) {
  const where = `${req.method} ${req.path} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  expect(res.headers.get("service-request-id"), where).toMatch(/^req_/);
  if (res.status < 300) return;
  const body = JSON.parse(res.text);
  expect(Object.keys(body), where).toEqual(["error"]);
  const { type, code, message, request_id } = body.error;
  expect(Object.keys(errorCodes), where).toContain(code);
  expect(type, where).toBe(errorCodes[code as ErrorCode].type);
  expect(statusFits(code, res.status), where).toBe(true);
  expect(typeof message, where).toBe("string");
  expect(request_id, where).toBe(res.headers.get("service-request-id"));
  for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) expect(res.headers.get(name), where).toMatch(/^\d+$/);
}

describe("fuzzing every documented operation with invalid requests", () => {
  it("never answers 5xx, and every refusal is the error envelope", async () => {
    const operations = Object.entries(doc.paths).filter(([, item]) => !isOriginPath(item)).flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
        .map(([method, op]) => ({ method: method.toUpperCase(), template, op })),
    );
    expect(operations.length).toBeGreaterThan(0);
    const runsPerOperation = Math.max(10, Math.min(40, Math.floor(requestBudget / operations.length)));
    const statuses = new Map<number, number>();
    for (const { method, template, op } of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(method, template, op), async (req) => {
          const res = await send(req);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expectWellFormedAnswer(req, res);
        }),
        { numRuns: runsPerOperation, endOnFailure: true },
      );
    }
    // The generators do reach past validation into handlers, and into refusals of each kind.
    expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
    for (const status of [400, 404, 415, 422]) expect(statuses.get(status) ?? 0, `no ${status} among ${[...statuses]}`).toBeGreaterThan(0);
  }, 120_000);
});
