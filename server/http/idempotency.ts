import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { preparedQuery } from "@/server/prepared";
import type { Tenant } from "@/server/tenancy";

export type StoredResponse = { status: number; body: string; replayed?: boolean };

const retentionMs = 24 * 60 * 60 * 1000;
/** An in-flight key older than this belongs to a request whose process died; it may run again. */
const abandonedAfterMs = 5 * 60 * 1000;
const printableAscii = /^[\x20-\x7e]{1,255}$/;

/** Results kept for replay: 2xx, and 4xx other than 409, 422 and 429 (contract §5). 5xx never. */
const storable = (status: number) => (status >= 200 && status < 300) || (status >= 400 && status < 500 && ![409, 422, 429].includes(status));

/**
 * Card numbers and security codes never reach the key store, not even hashed (an unkeyed hash
 * of a 16-digit number is searchable): they count by their last four digits and length.
 */
const secretFields = new Set(["number", "cvc"]);
const redact = (key: string, value: unknown) =>
  secretFields.has(key) && typeof value === "string" ? `redacted:${value.length}:${key === "number" ? value.slice(-4) : ""}` : value;

/**
 * JSON with sorted keys, so that the same body written differently is still the same body.
 * Iterative (a stack of pieces still to write), so no body's depth can exhaust the call stack.
 */
function canonical(root: unknown): string {
  const out: string[] = [];
  const pending: Array<string | { value: unknown }> = [{ value: root }];
  while (pending.length) {
    const piece = pending.pop()!;
    if (typeof piece === "string") {
      out.push(piece);
      continue;
    }
    const { value } = piece;
    const parts: Array<string | { value: unknown }> = [];
    if (Array.isArray(value)) {
      parts.push("[");
      value.forEach((item, index) => parts.push(...(index ? [","] : []), { value: item }));
      parts.push("]");
    } else if (value && typeof value === "object") {
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1));
      parts.push("{");
      entries.forEach(([k, v], index) => parts.push(`${index ? "," : ""}${JSON.stringify(k)}:`, { value: redact(k, v) }));
      parts.push("}");
    } else {
      out.push(JSON.stringify(value));
      continue;
    }
    for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]);
  }
  return out.join("");
}

export function validateIdempotencyKey(key: string): void {
  if (!printableAscii.test(key)) {
    throw new ApiError("parameter_invalid", "Idempotency-Key must be 1 to 255 printable ASCII characters.", {
      param: "Idempotency-Key",
      location: "header",
    });
  }
}

type Request = { db: Db; tenant: Tenant; key: string; method: string; path: string; body: unknown };

/**
 * Runs `execute` at most once per (account, environment, key) within 24 hours. The row is
 * claimed with INSERT … ON CONFLICT DO NOTHING, so of any number of concurrent requests with one
 * key exactly one runs; the others see it in flight (409) or, once done, get its stored answer.
 */
export async function withIdempotency(request: Request, execute: () => Promise<StoredResponse>): Promise<StoredResponse> {
  validateIdempotencyKey(request.key);
  const { db, tenant, key } = request;
  const fingerprint = createHash("sha256").update(canonical(request.body)).digest("hex");
  const scope = and(eq(idempotencyKeys.accountId, tenant.accountId), eq(idempotencyKeys.livemode, tenant.livemode), eq(idempotencyKeys.key, key));

  for (let attempt = 0; attempt < 3; attempt++) {
    // Claiming and completing are every keyed request's two statements: built once.
    const claimed = await preparedQuery(
      db,
      "idempotency_claim",
      { account: tenant.accountId, livemode: tenant.livemode, key, method: request.method, path: request.path, fingerprint },
      (p) =>
        db
          .insert(idempotencyKeys)
          .values({
            accountId: p("account"),
            livemode: p("livemode"),
            key: p("key"),
            method: p("method"),
            path: p("path"),
            fingerprint: p("fingerprint"),
            state: "in_flight",
          })
          .onConflictDoNothing()
          .returning({ key: idempotencyKeys.key }),
    );
    if (claimed.length) return runAndStore(db, request, scope, execute);

    const [existing] = await db.select().from(idempotencyKeys).where(scope);
    if (!existing) continue; // The first request failed and released the key meanwhile.
    const now = Date.now();
    if (existing.createdAt.getTime() < now - retentionMs) {
      await db.delete(idempotencyKeys).where(and(scope, lt(idempotencyKeys.createdAt, new Date(now - retentionMs))));
      continue;
    }
    if (existing.method !== request.method || existing.path !== request.path || existing.fingerprint !== fingerprint) {
      throw new ApiError(
        "idempotency_key_reused",
        `Keys for idempotent requests can only be used with the same method, path and parameters they were first used with (${existing.method} ${existing.path}).`,
        { param: "Idempotency-Key" },
      );
    }
    if (existing.state === "completed") {
      return { status: existing.responseStatus!, body: existing.responseBody!, replayed: true };
    }
    if (existing.lockedAt.getTime() < now - abandonedAfterMs) {
      const taken = await db
        .update(idempotencyKeys)
        .set({ lockedAt: sql`now()` })
        .where(and(scope, eq(idempotencyKeys.state, "in_flight"), eq(idempotencyKeys.lockedAt, existing.lockedAt)))
        .returning({ key: idempotencyKeys.key });
      if (taken.length) return runAndStore(db, request, scope, execute);
    }
    throw new ApiError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed; retry after it completes.", {
      param: "Idempotency-Key",
    });
  }
  throw new ApiError("idempotency_key_in_use", "A request with this Idempotency-Key is being processed concurrently; retry shortly.", {
    param: "Idempotency-Key",
  });
}

async function runAndStore(
  db: Db,
  { tenant, key }: Request,
  scope: ReturnType<typeof and>,
  execute: () => Promise<StoredResponse>,
): Promise<StoredResponse> {
  let response: StoredResponse;
  try {
    response = await execute();
  } catch (error) {
    await db.delete(idempotencyKeys).where(scope);
    throw error;
  }
  if (storable(response.status)) {
    await preparedQuery(
      db,
      "idempotency_complete",
      { account: tenant.accountId, livemode: tenant.livemode, key, status: response.status, body: response.body },
      (p) =>
        db
          .update(idempotencyKeys)
          .set({ state: "completed", responseStatus: p("status"), responseBody: p("body") })
          .where(and(eq(idempotencyKeys.accountId, p("account")), eq(idempotencyKeys.livemode, p("livemode")), eq(idempotencyKeys.key, p("key")))),
    );
  } else {
    await db.delete(idempotencyKeys).where(scope);
  }
  return response;
}
