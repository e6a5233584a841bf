import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";

type OpenAPIRegistry = OpenAPIHono["openAPIRegistry"];
import { errorCodes, type ErrorCode } from "@/server/errors";
import { scopeDescriptions } from "@/server/auth/scopes";
import type { AnyOperation } from "./define-operation";
import { errorSchema, errorSchemaFor, statusText } from "./openapi-errors";
import { apiVersions } from "./versions";

/**
 * How one operation appears in the OpenAPI document: derived from its definition and from the steps
 * of the chain it runs through (server/api/app.ts, operation.ts), so an operation added tomorrow is
 * described with the headers it reads, the headers it answers and the errors it can give without
 * saying so itself. Only errors of its own (a card decline, a state transition) it declares, in
 * `errors`. `tests/integration/openapi-contract.test.ts` drives every operation to hold this true.
 */

/** One error an operation can answer: a code at a status (`parameter_invalid` is 400 in the query and headers, 422 in a body). */
export type PossibleError = { code: ErrorCode; status: number };
const at = (code: ErrorCode, status: number = errorCodes[code].status): PossibleError => ({ code, status });
const all = (...codes: ErrorCode[]) => codes.map((code) => at(code));

const bodyMethods = new Set(["post", "put", "patch"]);
/** Whether the handler reads a body: everything but GET and DELETE (operation.ts). */
const readsBody = (op: AnyOperation) => bodyMethods.has(op.method);
/** A body that is required: creates, PUT, PATCH and actions with a required field (operation.ts `bodyRequired`). */
export const bodyRequired = (op: AnyOperation) =>
  !!op.body && (op.method === "put" || op.method === "patch" || op.status === 201 || !op.body.safeParse({}).success);
/** The id fields an operation looks objects up by: path, query (a list's are filters, not lookups) and body. */
const lookupFields = (op: AnyOperation) => {
  const query = op.list ? [] : Object.keys(op.query?.shape ?? {});
  const isId = (f: string) => f === "id" || f.endsWith("_id") || f.endsWith("_ids");
  return { path: Object.keys(op.params?.shape ?? {}).filter(isId), other: [...query, ...Object.keys(bodyShape(op))].filter(isId) };
};
/**
 * Looks an object up by id (`findOwned`): 404 for one that is not the tenant's. A list's query ids
 * are filters, not lookups: `?property_id=` naming nothing narrows the list to nothing, a 200.
 */
const looksUp = (op: AnyOperation) => {
  const { path, other } = lookupFields(op);
  return path.length + other.length > 0;
};
/**
 * Objects that belong to the account, not to a property (their tables have no `property_id`): a
 * lookup of one never meets an OAuth install's property grant, so it cannot answer 403
 * `property_not_granted`. Named as the path names them: the collection before `{id}`, or the
 * parameter (`backfill_id`).
 */
const accountWide = new Set(["webhook_endpoints", "deliveries", "backfill_id"]);
/** What a path parameter looks up: `{id}` the collection before it, any other the parameter's name. */
const pathResource = (op: AnyOperation, param: string) => {
  if (param !== "id") return param;
  const segments = op.path.split("/");
  return segments[segments.indexOf("{id}") - 1];
};
/**
 * Looks up an object of a property (or a guest, who belongs to the properties they stayed at), so an
 * OAuth install granted other properties gets 403 `property_not_granted`. Every body and query id
 * names such an object (properties, room types, rates, reservations, payments, events of a property).
 */
const meetsGrant = (op: AnyOperation) => {
  const { path, other } = lookupFields(op);
  return other.length > 0 || path.some((p) => !accountWide.has(pathResource(op, p)));
};
const bodyShape = (op: AnyOperation): Record<string, unknown> => (op.body as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};

type Step = {
  /** The step of the chain, as the code names it. */
  step: string;
  appliesTo(op: AnyOperation): boolean;
  errors(op: AnyOperation): PossibleError[];
  /** Request headers it reads: names of `components.parameters`. */
  parameters?: string[];
};

/** The chain every `/v1` operation runs through, in order, and what each step can answer. */
export const chain: Step[] = [
  { step: "renderError", appliesTo: () => true, errors: () => all("internal_error", "service_unavailable") },
  { step: "authenticate + requireAuth", appliesTo: (op) => !op.public, errors: () => all("missing_token", "invalid_token", "token_expired", "token_revoked", "ip_not_allowed") },
  { step: "rateLimit", appliesTo: () => true, errors: () => all("too_many_requests") },
  { step: "environment", appliesTo: (op) => !op.public, errors: () => all("invalid_environment", "invalid_version"), parameters: ["ServiceEnvironment", "ServiceVersion"] },
  { step: "scope", appliesTo: (op) => op.scope !== null, errors: () => all("insufficient_scope") },
  {
    step: "readJsonBody",
    appliesTo: readsBody,
    errors: (op) => [...all("request_too_large", "unsupported_content_type", "invalid_json"), ...(bodyRequired(op) ? all("parameter_missing") : [])],
  },
  {
    step: "withIdempotency",
    appliesTo: (op) => op.method === "post",
    errors: () => [at("parameter_invalid", 400), ...all("idempotency_key_in_use", "idempotency_key_reused")],
    parameters: ["IdempotencyKey"],
  },
  { step: "parsePath", appliesTo: (op) => !!op.params, errors: () => all("resource_missing") },
  // An unknown query parameter is refused on every operation, with or without a query schema.
  { step: "query", appliesTo: (op) => !op.public, errors: () => [at("parameter_invalid", 400)] },
  { step: "list", appliesTo: (op) => !!op.list, errors: () => all("invalid_cursor") },
  {
    step: "body",
    appliesTo: readsBody,
    errors: (op) => [...all("parameter_invalid", "parameter_unknown"), ...(op.body && !op.body.safeParse({}).success ? all("parameter_missing") : [])],
  },
  { step: "findOwned", appliesTo: looksUp, errors: () => all("resource_missing") },
  { step: "assertPropertyGranted", appliesTo: meetsGrant, errors: () => all("property_not_granted") },
];

/** Every error the operation can answer, by status, each status's codes in the table's order. */
function operationErrors(op: AnyOperation): Map<number, ErrorCode[]> {
  const possible = [...chain.filter((s) => s.appliesTo(op)).flatMap((s) => s.errors(op)), ...(op.errors ?? []).map((code) => at(code))];
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const { code, status } of possible) byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  const order = Object.keys(errorCodes) as ErrorCode[];
  return new Map(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => [status, order.filter((c) => codes.has(c))]),
  );
}

const ref = (kind: "parameters" | "headers" | "schemas", name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Response headers: every answer's, and those of particular answers. */
function responseHeaders(op: AnyOperation, status: number) {
  const headers: Record<string, { $ref: string }> = {
    "Service-Request-Id": ref("headers", "ServiceRequestId"),
    "Service-Version": ref("headers", "ServiceVersionEcho"),
    "X-RateLimit-Limit": ref("headers", "RateLimitLimit"),
    "X-RateLimit-Remaining": ref("headers", "RateLimitRemaining"),
    "X-RateLimit-Reset": ref("headers", "RateLimitReset"),
  };
  // A 5xx made before the rate-limit step ran (the limiter's store down) lacks them.
  if (status >= 500) for (const name of ["Limit", "Remaining", "Reset"]) headers[`X-RateLimit-${name}`] = ref("headers", `RateLimit${name}IfCounted`);
  if (status === 401) headers["WWW-Authenticate"] = ref("headers", "WwwAuthenticate");
  if (status === 429 || status === 503) headers["Retry-After"] = ref("headers", "RetryAfter");
  // A keyed POST's stored answer (2xx, and 4xx but 409, 422, 429) comes back marked when replayed.
  const stored = status < 300 || (status >= 400 && status < 500 && ![401, 409, 413, 415, 422, 429].includes(status));
  if (op.method === "post" && stored) headers["Idempotent-Replayed"] = ref("headers", "IdempotentReplayed");
  if (status < 300 && op.allowOffset) Object.assign(headers, { Deprecation: ref("headers", "Deprecation"), Link: ref("headers", "Link") });
  if (status < 300 && (op.csv || op.pdf)) headers["Content-Disposition"] = ref("headers", "ContentDisposition");
  return headers;
}

/** An error response: the error object with `type` and `code` narrowed to what this operation can answer at this status. */
function errorResponse(op: AnyOperation, status: number, codes: ErrorCode[]) {
  return {
    description: `${statusText[status]}: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
    headers: responseHeaders(op, status),
    content: { "application/json": { schema: errorSchemaFor(status, codes, { declinesRecordPayment: !op.declinesRecordNoPayment }) } },
  };
}

/** The operation's security: a bearer API key or an OAuth access token, each with the scope the operation checks. */
const operationSecurity = (op: AnyOperation): Record<string, string[]>[] => {
  if (op.public) return [];
  const scopes = op.scope ? [op.scope] : [];
  return [{ bearerAuth: scopes }, { oauth2: scopes }];
};

/** What a public operation reads: no credential is needed, but one (and its environment) picks whose rate-limit budget counts it. */
const publicDescription =
  "Public: no credential needed. Sent with `Authorization: Bearer …` (and `Service-Environment: sandbox`), the request is counted against that account's (sandbox) rate limits; without one, against the caller's address.";

/** The operation's entry in the document. */
export function describeOperation(op: AnyOperation, request: RouteConfig["request"]): RouteConfig {
  const status = op.status ?? 200;
  const parameters = chain.filter((s) => s.appliesTo(op)).flatMap((s) => s.parameters ?? []);
  const success = op.csv
    ? {
        description: `Success: JSON by default; with \`format=csv\`, \`text/csv\` (RFC 4180, header row first) as an attachment. ${op.csv}`,
        headers: responseHeaders(op, status),
        content: { "application/json": { schema: op.response }, "text/csv": { schema: { type: "string" as const, description: op.csv } } },
      }
    : op.pdf
      ? {
          description: "Success: the document as `application/pdf`, an attachment.",
          headers: responseHeaders(op, status),
          content: {
            "application/pdf": {
              schema: { type: "string" as const, format: "binary", description: "A PDF file (PDF 1.7, A4): save it or show it; its bytes are not JSON." },
              // Binary: the example is the file's first bytes, as a reader would recognise it.
              example: "%PDF-1.7\n%…(binary: the invoice's pages follow)",
            },
          },
        }
      : { description: "Success", headers: responseHeaders(op, status), content: { "application/json": { schema: op.response } } };
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    description: op.description ?? (op.public ? publicDescription : op.scope ? `Requires scope \`${op.scope}\`.` : "Any valid credential."),
    tags: [op.tag],
    security: operationSecurity(op),
    parameters: parameters.map((name) => ref("parameters", name)),
    request,
    responses: {
      [status]: success,
      ...Object.fromEntries([...operationErrors(op)].map(([s, codes]) => [s, errorResponse(op, s, codes)])),
    },
  } as unknown as RouteConfig;
}

const integer = { type: "integer" as const };

/** The components every operation refers to: security schemes, header parameters, response headers. */
export function registerContractComponents(registry: OpenAPIRegistry, origin = "") {
  registry.register("Error", errorSchema);
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "An API key (`hk_…`, made in the dashboard under Developers → API keys) or an OAuth access token (`hat_…`). Each operation names the scope it needs.",
  });
  registry.registerComponent("securitySchemes", "oauth2", {
    type: "oauth2",
    description: [
      "OAuth 2.0 authorization code (RFC 6749) with PKCE (RFC 7636, `S256` only; required of public clients).",
      "Metadata: `/.well-known/oauth-authorization-server` (RFC 8414). Revocation: `POST /oauth/revoke` (RFC 7009).",
      "Access tokens (`hat_…`) last an hour; refresh tokens rotate and last 90 days. The token endpoint takes",
      "client credentials by HTTP Basic or in the form; its errors follow RFC 6749 §5.2.",
    ].join(" "),
    flows: {
      authorizationCode: {
        authorizationUrl: `${origin}/oauth/authorize`,
        tokenUrl: `${origin}/oauth/token`,
        refreshUrl: `${origin}/oauth/token`,
        scopes: scopeDescriptions,
      },
    },
  });
  registry.registerComponent("parameters", "ServiceEnvironment", {
    name: "Service-Environment",
    in: "header",
    required: false,
    description: "The data set: `live` (default) or `sandbox`. Any other value: 400 `invalid_environment`.",
    schema: { type: "string", enum: ["live", "sandbox"], default: "live" },
    example: "sandbox",
  });
  registry.registerComponent("parameters", "ServiceVersion", {
    name: "Service-Version",
    in: "header",
    required: false,
    description: "Pins the response and event payload schema. Absent: the account's pinned version. Unknown: 400 `invalid_version`.",
    schema: { type: "string", enum: [...apiVersions] },
    example: apiVersions[apiVersions.length - 1],
  });
  registry.registerComponent("parameters", "IdempotencyKey", {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes the request safe to retry: a retry with the same key, method, path and body within 24 hours gets the stored answer (with `Idempotent-Replayed: true`) instead of running again. 1–255 printable ASCII characters (else 400 `parameter_invalid`); the same key with another request is 422 `idempotency_key_reused`; while the first is running, 409 `idempotency_key_in_use`.",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7e]+$" },
    example: "5f0c7e0a-2b7e-4c4e-9a57-4c1f3e0e9d11",
  });
  const header = (name: string, description: string, schema: object, required = true, example?: unknown) =>
    registry.registerComponent("headers", name, { description, required, schema, ...(example !== undefined ? { example } : {}) });
  header("ServiceRequestId", "This request's id; quote it when you contact us.", { type: "string", pattern: "^req_" }, true, "req_1a2B3c4D5e6F7g8H9i0J1k2L");
  header("ServiceVersionEcho", "The API version the answer follows.", { type: "string", enum: [...apiVersions] }, true, apiVersions[apiVersions.length - 1]);
  header("RateLimitLimit", "Requests allowed per minute on this account and environment.", integer, true, 1000);
  header("RateLimitRemaining", "The smallest remainder of the per-second, per-minute and per-day windows.", integer, true, 998);
  header("RateLimitReset", "Unix time (seconds) when the window that `X-RateLimit-Remaining` counts resets.", integer, true, 1795000060);
  for (const [name, description] of [["Limit", "per-minute limit"], ["Remaining", "smallest remainder"], ["Reset", "reset time"]])
    header(`RateLimit${name}IfCounted`, `As on every answer (the ${description}), when the request was counted before it failed.`, integer, false);
  header("RetryAfter", "Whole seconds to wait before retrying (at least 1).", { type: "integer", minimum: 1 }, true, 1);
  header("WwwAuthenticate", "The bearer challenge (RFC 6750).", { type: "string" }, true, 'Bearer realm="innkeep"');
  header("IdempotentReplayed", "`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.", { type: "string", enum: ["true"] }, false);
  header("Deprecation", "With `offset`: offset pagination is deprecated (v1.7).", { type: "string", enum: ["true"] }, false);
  header("Link", "With `offset`: the same list in cursor form, `rel=\"alternate\"`.", { type: "string" }, false);
  header("ContentDisposition", "On a CSV (`format=csv`) or PDF answer: `attachment; filename=\"…\"` (a PDF adds `filename*` in UTF-8).", { type: "string" }, false);
}
