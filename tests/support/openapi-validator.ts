import type { IncomingMessage } from "node:http";
import addFormats from "ajv-formats";
import OpenAPIBackend, { type Document } from "openapi-backend";
import type { Db } from "@/db/client";
import { createRestApi } from "@/server/api/app";
import { RateLimiter } from "@/server/http/rate-limit";

type Media = { schema?: unknown };
type Ref = { $ref?: string };
type HeaderObject = Ref & { required?: boolean };
type ResponseObject = { content?: Record<string, Media>; headers?: Record<string, HeaderObject> };
type Answer = {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  text: string;
  /** The answer's headers: each header of the contract it carries must be declared on the response, each required one present. */
  headers?: Headers;
  /** Headers the request sent: each header of the contract among them must be a parameter of the operation. */
  requestHeaders?: Record<string, string>;
};

/** Response headers of the contract (conventions §1, §5): answering one the document does not declare is drift. */
const contractResponseHeaders = [
  "service-request-id",
  "service-version",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "retry-after",
  "www-authenticate",
  "idempotent-replayed",
  "deprecation",
  "link",
  "content-disposition",
];
/** Request headers the chain reads: sending one the operation does not declare means the document misses it. */
const contractRequestHeaders = ["idempotency-key", "service-environment", "service-version"];

type OperationObject = { parameters?: (Ref & { in?: string; name?: string })[]; security?: unknown[]; requestBody?: unknown };

/**
 * Headers an operation may read without a header parameter, because OpenAPI says them otherwise
 * (it ignores `Authorization` and `Content-Type` parameters, OAS 3.1 §4.8.12.1) or a client never
 * sends them. Every other header an operation reads must be one of its parameters.
 */
const readWithoutParameter: Record<string, { when(op: OperationObject, method: string): boolean; why: string }> = {
  authorization: {
    when: (op) => (op.security?.length ?? 0) > 0 || isPublic(op),
    why: "the security requirement; a public operation takes an optional credential only to count the request against its account's budget (its description says so)",
  },
  "content-type": { when: (_op, method) => bodyMethods.has(method), why: "the request body's media type (`requestBody`)" },
  "content-length": { when: (_op, method) => bodyMethods.has(method), why: "the request body's framing (the 1 MiB limit)" },
  "service-environment": { when: (op) => isPublic(op), why: "a public operation's rate-limit budget (sandbox or live), said in its description; the environment step does not run" },
  "x-forwarded-for": { when: () => true, why: "written by a trusted proxy in front of the server (TRUST_PROXY), not by the client" },
};
const bodyMethods = new Set(["POST", "PUT", "PATCH"]);
function isPublic(op: OperationObject) {
  return Array.isArray(op.security) && op.security.length === 0;
}

/** What the harness found read but not declared, until a test (or the harness's close) takes it. */
const headerDrift: string[] = [];
/** Request headers the app read while answering, by operation ("GET /guests/{id}"): what the harness saw. */
export const headersRead = new Map<string, Set<string>>();

/** Takes the header-read drift found so far (each once). */
export const takeHeaderDrift = (): string[] => headerDrift.splice(0);

/**
 * Wraps the app's `fetch` as the harness serves it: every read of a request header, through Hono's
 * `c.req.header()` / `req.raw.headers` or the Node request's `headers`, is recorded, and once the
 * answer is made compared with the operation's declared header parameters. A handler that starts
 * reading a header the document does not declare shows up in `takeHeaderDrift`.
 */
export function recordingHeaderReads<E extends { incoming?: unknown }, R>(fetch: (request: Request, env: E) => R | Promise<R>) {
  return async (request: Request, env: E): Promise<R> => {
    const read = new Set<string>();
    const record = (name: unknown) => typeof name === "string" && read.add(name.toLowerCase());
    const headers = new Proxy(request.headers, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "get" || prop === "has") return (name: unknown) => (record(name), value.call(target, name));
        // Anything else (forEach, entries, keys, the iterator) reads every header.
        return (...args: unknown[]) => (read.add("*"), value.apply(target, args));
      },
    });
    const wrapped = new Proxy(request, {
      get(target, prop) {
        if (prop === "headers") return headers;
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const incoming = env?.incoming as Pick<IncomingMessage, "headers"> | undefined;
    if (incoming) {
      const raw = incoming.headers;
      const watched = new Proxy(raw, {
        get: (target, prop) => (record(prop), Reflect.get(target, prop)),
        getOwnPropertyDescriptor: (target, prop) => (record(prop), Reflect.getOwnPropertyDescriptor(target, prop)),
        has: (target, prop) => (record(prop), Reflect.has(target, prop)),
        ownKeys: (target) => (read.add("*"), Reflect.ownKeys(target)),
      });
      Object.defineProperty(incoming, "headers", { value: watched, configurable: true, writable: true });
    }
    const answer = await fetch(wrapped, env);
    await compareReads(request.method, new URL(request.url).pathname, read);
    return answer;
  };
}

async function compareReads(method: string, pathname: string, read: Set<string>) {
  if (!pathname.startsWith("/v1/")) return;
  const backend = await load();
  const operation = backend.router.matchOperation({ method: method.toLowerCase(), path: pathname, headers: {}, query: {} }) as (OperationObject & { path: string }) | undefined;
  if (!operation) return;
  const where = `${method} ${operation.path}`;
  const seen = headersRead.get(where) ?? new Set<string>();
  headersRead.set(where, seen);
  const declared = new Set(
    (operation.parameters ?? [])
      .map(resolve)
      .filter((p) => p.in === "header")
      .map((p) => p.name!.toLowerCase()),
  );
  for (const name of read) {
    seen.add(name);
    if (declared.has(name) || readWithoutParameter[name]?.when(operation, method)) continue;
    headerDrift.push(
      name === "*" ? `${where}: read every request header (a header parameter for each one it uses)` : `${where}: read the request header '${name}', which the operation does not declare`,
    );
  }
}

/**
 * openapi-backend checks the document against the OpenAPI 3.0 schema, which a 3.1 document fails
 * (`webhooks`, type arrays). Whether the document itself is valid 3.1 is `redocly lint`'s job
 * (`npm run lint:openapi`); here it only routes and validates answers.
 */
class Backend extends OpenAPIBackend {
  validateDefinition() {
    return this.document;
  }
}

let validator: Promise<OpenAPIBackend> | undefined;
let served: Document | undefined;

/** A `$ref` inside the document, resolved (components only). */
function resolve<T extends Ref>(value: T): T {
  if (!value?.$ref) return value;
  const [, , kind, name] = value.$ref.split("/");
  return (served as unknown as { components: Record<string, Record<string, T>> }).components[kind][name];
}

/**
 * The document `GET /v1/openapi.json` serves, made by the same code in-process (on a limiter of
 * its own, so fetching it never spends a test's rate-limit budget), loaded into openapi-backend.
 */
function load(): Promise<OpenAPIBackend> {
  validator ??= (async () => {
    const api = createRestApi({ db: undefined as unknown as Db, limiter: new RateLimiter(), trustProxy: false });
    const document = (await (await api.request("/openapi.json")).json()) as Document;
    served = structuredClone(document);
    const backend = new Backend({
      definition: document,
      apiRoot: "/v1",
      strict: true,
      quick: true,
      validate: true,
      ajvOpts: { strict: false, allErrors: true },
      // Formats are checked too: a `date-time` answered without its zone, or a `date` that is not one, is drift.
      customizeAjv: (ajv) => addFormats(ajv),
    });
    await backend.init();
    return backend;
  })();
  return validator;
}

/**
 * What in one `/v1` answer the document does not describe: a status the operation does not list, a
 * media type its response does not list, or a JSON body off the response's schema. Answers of a
 * path or method the document does not have (404 route_not_found, 405) have no operation to compare.
 */
export async function undocumented(answer: Answer): Promise<string[]> {
  const backend = await load();
  const url = new URL(answer.path, "http://x");
  if (!url.pathname.startsWith("/v1/")) return [];
  const operation = backend.router.matchOperation({ method: answer.method.toLowerCase(), path: url.pathname, headers: {}, query: {} });
  if (!operation) return [];
  // The router tolerates what the app does not (a trailing slash): an answer that names no route is no operation's.
  if ((answer.status === 404 || answer.status === 405) && /"code":"(route_not_found|method_not_allowed)"/.test(answer.text)) return [];
  const where = `${answer.method} ${url.pathname} → ${answer.status}`;
  const responses = (operation.responses ?? {}) as Record<string, ResponseObject>;
  const declared = declaredResponse(responses, answer.status);
  if (!declared) return [`${where}: status not in the document (it lists ${Object.keys(responses).join(", ")})`];
  const problems: string[] = [];
  // A public operation (`security: []`, GET /openapi.json) runs no environment step: it reads none of them.
  const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
  if (answer.requestHeaders && !isPublic) {
    const parameters = ((operation.parameters ?? []) as (Ref & { in?: string; name?: string })[]).map(resolve);
    const declared = new Set(parameters.filter((p) => p.in === "header").map((p) => p.name!.toLowerCase()));
    for (const name of Object.keys(answer.requestHeaders).map((n) => n.toLowerCase())) {
      if (contractRequestHeaders.includes(name) && !declared.has(name)) problems.push(`${where}: the request sent '${name}', a header the operation does not declare`);
    }
  }
  if (answer.headers) {
    const declared = Object.fromEntries(Object.entries(declaredResponse(responses, answer.status)?.headers ?? {}).map(([n, h]) => [n.toLowerCase(), resolve(h)]));
    for (const name of contractResponseHeaders) {
      if (answer.headers.has(name) && !declared[name]) problems.push(`${where}: header '${name}' answered but not declared on the response`);
    }
    for (const [name, header] of Object.entries(declared)) {
      if (header.required && !answer.headers.has(name)) problems.push(`${where}: header '${name}' is declared required but missing`);
    }
  }
  if (problems.length) return problems;
  const media = (answer.contentType ?? "").split(";")[0].trim().toLowerCase();
  if (!declared.content) return answer.text ? [`${where}: a body (${media}) where the document declares none`] : [];
  if (!declared.content[media])
    return [`${where}: media type '${media || "none"}' not in the document (it lists ${Object.keys(declared.content).join(", ")})`];
  if (media !== "application/json") return [];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`${where}: declared JSON, but the body does not parse`];
  }
  const result = backend.validator.validateResponse(body, operation, answer.status);
  return (result.errors ?? []).map((e) => `${where}: body${e.instancePath || ""} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
}

const declaredResponse = (responses: Record<string, ResponseObject>, status: number): ResponseObject | undefined =>
  responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
