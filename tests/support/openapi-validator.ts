import addFormats from "ajv-formats";
import OpenAPIBackend, { type Document } from "openapi-backend";
import type { Db } from "@/db/client";
import { createRestApi } from "@/server/http/app";
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
