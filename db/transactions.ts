import { sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, Tx } from "@/db/client";

/** serialization_failure and deadlock_detected: the transaction did nothing and may simply run again. */
const retryable = new Set(["40001", "40P01"]);

function pgCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
}

/**
 * Runs `work` in a transaction, again (up to 5 times, with jittered backoff) when PostgreSQL
 * aborts it for a serialization failure or a deadlock, so callers see an answer, never a 500.
 * Given a transaction already open (an idempotent request's: server/http/idempotency.ts), the
 * work runs inside it under a savepoint, and a retryable failure goes up to whoever opened it.
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (db instanceof PgTransaction) return underSavepoint(db as Tx, work);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= 5 || !retryable.has(pgCode(error) ?? "")) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
    }
  }
}

let savepoints = 0;

type Session = { session: { client: { unsafe?: (text: string) => { execute(): Promise<unknown> } } } };

/**
 * Queues `savepoint <name>` on the transaction's connection ahead of anything the work sends.
 * On postgres.js it is not waited for: it travels with the work's first statement (a pipeline
 * on one connection), so a savepoint costs no round trip more than a BEGIN of its own would.
 */
function sendSavepoint(tx: Tx, name: string): Promise<unknown> {
  const client = (tx as unknown as Session).session.client;
  if (typeof client.unsafe === "function") return client.unsafe(`savepoint ${name}`).execute();
  return Promise.resolve(tx.execute(sql.raw(`savepoint ${name}`)));
}

/**
 * The work's own statements roll back when it throws, and those of the transaction around it
 * stay. The savepoint is never released: the transaction's COMMIT ends it anyway.
 */
async function underSavepoint<T>(tx: Tx, work: (tx: Tx) => Promise<T>): Promise<T> {
  const name = `work_${++savepoints}`;
  const marked = sendSavepoint(tx, name);
  marked.catch(() => {}); // Awaited below; a failure here fails the work's first statement too.
  try {
    const result = await work(tx);
    await marked;
    return result;
  } catch (error) {
    await marked;
    await tx.execute(sql.raw(`rollback to savepoint ${name}`));
    throw error;
  }
}

/** Carries a rolled-back transaction's result out of it. */
class RolledBack<T> extends Error {
  constructor(readonly result: T) {
    super("rolled back");
  }
}

/**
 * Runs `work` in a transaction that is then rolled back, and answers what it returned: a
 * preview that applies every rule of the real change, and refuses exactly what it would refuse.
 */
export async function rolledBack<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    await db.transaction(async (tx) => {
      throw new RolledBack(await work(tx));
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.result as T;
    throw error;
  }
  throw new Error("unreachable: the transaction always rolls back");
}
