import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { rowsOf, type Db, type Executor, type Tx } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { preparedQuery } from "@/db/prepared";
import type { Tenant } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";

export type StoredResponse = { status: number; body: string; replayed?: boolean };

const retentionMs = 24 * 60 * 60 * 1000;
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

function validateIdempotencyKey(key: string): void {
  if (!printableAscii.test(key)) {
    throw new ApiError("parameter_invalid", "Idempotency-Key must be 1 to 255 printable ASCII characters.", {
      param: "Idempotency-Key",
      location: "header",
    });
  }
}

type Request = { db: Db; tenant: Tenant; key: string; method: string; path: string; body: unknown };

/** An answer that is not kept (409, 422, 429): it leaves the transaction, which then rolls back. */
class NotKept extends Error {
  constructor(readonly response: StoredResponse) {
    super("answer not kept");
  }
}

const inUse = () =>
  new ApiError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed; retry after it completes.", {
    param: "Idempotency-Key",
  });

/**
 * Runs `execute` at most once per (account, environment, key) within 24 hours, and exactly once
 * when it succeeds: the key's row is claimed, the work done and its answer written in one
 * transaction, which `execute` is given to run on. A crash at any point leaves either nothing
 * (the retry runs it) or the work with its answer (the retry replays it); no claim outlives its
 * request, so none is ever taken over. A concurrent request with the same key finds the first
 * one's transaction-level lock taken and answers 409 at once, rather than holding a connection
 * while it waits; once the first has committed, it gets the stored answer.
 */
export async function withIdempotency(request: Request, execute: (db: Executor) => Promise<StoredResponse>): Promise<StoredResponse> {
  validateIdempotencyKey(request.key);
  const fingerprint = createHash("sha256").update(canonical(request.body)).digest("hex");
  try {
    return await inTransaction(request.db, async (tx) => {
      const replay = await claim(tx, request, fingerprint);
      if (replay) return replay;
      const response = await execute(tx);
      if (!storable(response.status)) throw new NotKept(response);
      await preparedQuery(
        tx,
        "idempotency_complete",
        { account: request.tenant.accountId, livemode: request.tenant.livemode, key: request.key, status: response.status, body: response.body },
        (p) =>
          tx
            .update(idempotencyKeys)
            .set({ state: "completed", responseStatus: p("status"), responseBody: p("body") })
            .where(and(eq(idempotencyKeys.accountId, p("account")), eq(idempotencyKeys.livemode, p("livemode")), eq(idempotencyKeys.key, p("key")))),
      );
      return response;
    });
  } catch (error) {
    if (error instanceof NotKept) return error.response;
    throw error;
  }
}

/**
 * Takes the key for this transaction: a transaction-level advisory lock on it (not waited for:
 * whoever holds it is in flight) and its row, inserted unless one was committed before, in one
 * statement. Answers the stored response when there is one to replay, nothing when the work is
 * this request's to do; throws for a key in use or used for another request.
 */
async function claim(tx: Tx, { tenant, key, method, path }: Request, fingerprint: string): Promise<StoredResponse | undefined> {
  const { accountId, livemode } = tenant;
  const [taken] = rowsOf<{ locked: boolean; claimed: number }>(
    await tx.execute(sql`
      with attempt as (
        select pg_try_advisory_xact_lock(hashtextextended(${accountId} || ':' || ${String(livemode)} || ':' || ${key}, 0)) as locked
      ), claimed as (
        insert into ${idempotencyKeys} (account_id, livemode, key, method, path, fingerprint, state)
        select ${accountId}, ${livemode}, ${key}, ${method}, ${path}, ${fingerprint}, 'in_flight' from attempt where locked
        on conflict do nothing
        returning 1
      )
      select (select locked from attempt) as locked, (select count(*) from claimed)::int as claimed`),
  );
  if (!taken.locked) throw inUse();
  if (taken.claimed) return undefined;

  const scope = and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.livemode, livemode), eq(idempotencyKeys.key, key));
  const [existing] = await tx.select().from(idempotencyKeys).where(scope);
  if (!existing) throw inUse();
  if (existing.createdAt.getTime() < Date.now() - retentionMs) {
    // Forgotten after 24 hours: the key starts again as this request's (the lock is ours).
    await tx
      .update(idempotencyKeys)
      .set({ method, path, fingerprint, state: "in_flight", responseStatus: null, responseBody: null, createdAt: sql`now()`, lockedAt: sql`now()` })
      .where(scope);
    return undefined;
  }
  if (existing.method !== method || existing.path !== path || existing.fingerprint !== fingerprint) {
    throw new ApiError(
      "idempotency_key_reused",
      `Keys for idempotent requests can only be used with the same method, path and parameters they were first used with (${existing.method} ${existing.path}).`,
      { param: "Idempotency-Key" },
    );
  }
  // A committed claim without its answer was left by the version before this one, which stored
  // the two apart; whether its work committed is unknown, so it is never run again.
  if (existing.state !== "completed") throw inUse();
  return { status: existing.responseStatus!, body: existing.responseBody!, replayed: true };
}
