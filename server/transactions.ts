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
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= 5 || !retryable.has(pgCode(error) ?? "")) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
    }
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
