import type { Context } from "hono";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import { ApiError, ruleErrorOf } from "@/server/errors";
import type { ApiEnv } from "./context";
import { readJsonBody } from "./body";
import type { AnyObject, AnyOperation, ListTools, RequestCtx } from "./define-operation";
import { withIdempotency, type StoredResponse } from "./idempotency";
import { filterFingerprint, listEnvelope, listQuery, pageRequest } from "./pagination";
import { parseOrThrow } from "./validation";
import { queryInteger } from "@/server/schemas";
import { bodyRequired, describeOperation } from "./openapi-operation";

// The operation kit's vocabulary, where every capability's operations.ts imports it from.
export { defineOperation, type AnyOperation, type Operation, type RequestCtx } from "./define-operation";

const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

/** The query schema a list really accepts: its filters plus `limit` and `cursor`. */
function querySchema(op: AnyOperation): AnyObject | undefined {
  if (!op.list) return op.query;
  const extra = op.allowOffset ? { offset: queryInteger({ min: 0, max: 10_000 }).optional() } : {};
  return z.strictObject({ ...(op.query?.shape ?? {}), ...listQuery, ...extra });
}

/**
 * The operations' descriptions in an app's document, written the first time the document is asked
 * for (`writeDescriptions`), in the order the operations were mounted: describing ~150 operations
 * (their error schemas above all) was a sixth of the server's start, and most processes never
 * serve the document.
 */
const undescribed = new WeakMap<object, (() => void)[]>();
function describeWhenAsked(app: object, describe: () => void) {
  const list = undescribed.get(app) ?? [];
  list.push(describe);
  undescribed.set(app, list);
}
/** Writes the descriptions still pending in `app`'s document; its document getters call it first. */
export function writeDescriptions(app: object): void {
  const list = undescribed.get(app);
  undescribed.delete(app);
  for (const describe of list ?? []) describe();
}

/** Registers an operation: its OpenAPI description and its handler, from the same schemas. */
export function mountOperation(app: OpenAPIHono<ApiEnv>, op: AnyOperation): void {
  const query = querySchema(op);
  const required = bodyRequired(op);
  describeWhenAsked(app, () =>
    app.openAPIRegistry.registerPath(
      describeOperation(op, {
        ...(op.params ? { params: op.params } : {}),
        ...(query ? { query } : {}),
        ...(op.body ? { body: { required, content: { "application/json": { schema: op.body } } } } : {}),
      }),
    ),
  );
  app.on(op.method.toUpperCase(), honoPath(op.path), async (c) => {
    c.set("route", op.path);
    const principal = c.get("principal")!;
    if (op.scope && !principal.scopes.has(op.scope)) {
      throw new ApiError("insufficient_scope", `This request requires the '${op.scope}' scope, which the credential does not have.`);
    }
    const rawBody = op.method === "get" || op.method === "delete" ? undefined : await readJsonBody(c, { required });
    const ctx: RequestCtx = {
      db: c.get("deps").db,
      tenant: { accountId: principal.accountId, livemode: c.get("livemode"), propertyIds: principal.propertyIds },
      principal,
      actor: principal.actor,
      requestId: c.get("requestId"),
      version: c.get("version"),
    };
    // An idempotent request's work runs on the transaction that also holds its key and answer.
    const execute = (db = ctx.db) => run(c, op, query, rawBody, db === ctx.db ? ctx : { ...ctx, db });
    type Answer = StoredResponse & { raw?: Response };
    // Only a POST reads the key (the document declares `Idempotency-Key` on POSTs alone).
    const key = op.method === "post" ? c.req.header("idempotency-key") : undefined;
    // The raw, still percent-encoded path: `c.req.path` is decoded and may hold a NUL the database refuses.
    const path = new URL(c.req.url).pathname;
    const response: Answer =
      op.method === "post" && key !== undefined
        ? await withIdempotency({ db: ctx.db, tenant: ctx.tenant, key, method: "POST", path, body: rawBody }, (tx) =>
            captureErrors(c, () => execute(tx)),
          )
        : await execute();
    if (response.raw) return response.raw;
    const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
    if (response.replayed) headers["idempotent-replayed"] = "true";
    return c.body(response.body, response.status as 200, headers);
  });
}

/** Parses the input, calls the handler, serializes its answer. */
async function run(
  c: Context<ApiEnv>,
  op: AnyOperation,
  query: AnyObject | undefined,
  rawBody: unknown,
  ctx: RequestCtx,
): Promise<StoredResponse & { raw?: Response }> {
  const params = op.params ? parsePath(op.params, c.req.param()) : undefined;
  const queryInput = c.req.query();
  if (!op.allowOffset && "offset" in queryInput) {
    throw new ApiError("parameter_invalid", "Offset pagination is not supported on this list; use `cursor`.", { param: "offset", location: "query" });
  }
  const parsedQuery = query ? parseOrThrow(query, queryInput, "query") : undefined;
  if (!query && Object.keys(queryInput).length) {
    const name = Object.keys(queryInput)[0];
    throw new ApiError("parameter_invalid", `Received unknown query parameter: '${name}'.`, { param: name, location: "query" });
  }
  const body = op.body ? parseOrThrow(op.body, rawBody, "body") : undefined;
  if (!op.body && rawBody && typeof rawBody === "object" && Object.keys(rawBody).length) {
    const name = Object.keys(rawBody)[0];
    throw new ApiError("parameter_unknown", `Received unknown parameter: '${name}'. This request takes no body.`, { param: name });
  }
  // Worked out when a list needs it: a hash per request that a POST never uses.
  let fingerprint: string | undefined;
  const filters = () => (fingerprint ??= filterFingerprint(op.path + JSON.stringify(params ?? {}), parsedQuery ?? {}));
  const list: ListTools = {
    page: op.list ? pageRequest(parsedQuery as { limit: number; cursor?: string }, filters()) : { limit: 25, cursor: null },
    envelope: (page, present) => listEnvelope(page, filters(), present),
  };
  const result = await op.handler({ ctx, params, query: parsedQuery, body, list, c });
  if (result instanceof Response) return { status: result.status, body: "", raw: result };
  return { status: op.status ?? 200, body: JSON.stringify(result) };
}

/** An id that cannot even be valid names nothing: 404 like any other missing object, never a 422. */
function parsePath(schema: AnyObject, input: Record<string, string>) {
  try {
    return parseOrThrow(schema, input, "path");
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const param = error.param ?? "id";
    throw new ApiError("resource_missing", `No such object: '${String(input[param] ?? "").slice(0, 64)}'`, { param, location: "path" });
  }
}

/** Inside an idempotent request, an ApiError is an answer to store, not an exception. */
async function captureErrors(c: Context<ApiEnv>, execute: () => Promise<StoredResponse>): Promise<StoredResponse> {
  try {
    return await execute();
  } catch (thrown) {
    const error = ruleErrorOf(thrown) ?? thrown;
    if (!(error instanceof ApiError) || error.headers) throw error;
    return { status: error.status, body: JSON.stringify(error.toJSON(c.get("requestId"))) };
  }
}
