import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { onPostgres, testDatabaseUrl } from "../support/database";

// postgres.js 3.4.9 could send a transaction's BEGIN without reserving its connection when the
// connection's pipeline was full or its socket pushed back (porsager/postgres#823, #1218): the
// transaction failed with UNSAFE_TRANSACTION and stayed open on a connection the pool then gave
// to unrelated queries. The bench met it as a 500 on a booking under backlog. patches/ fixes it;
// these hit the same path: a pipeline of 0 puts every BEGIN at its boundary (upstream #1210), and
// the upstream report's load fills small pipelines while connections are busy.

/** A pool of `max` connections with pipelines of `pipeline` queries (an option postgres.js's types leave out). */
const pool = (max: number, pipeline: number) => postgres(testDatabaseUrl(), { max, onnotice: () => {}, ...({ max_pipeline: pipeline } as object) });

describe.runIf(onPostgres)("postgres.js transactions under a full pipeline (patches/postgres+3.4.9.patch)", () => {
  it("a BEGIN at the pipeline's boundary still reserves its connection (a pipeline of 0: every one)", async () => {
    const sql = pool(2, 0);
    try {
      const ids = await Promise.all(Array.from({ length: 4 }, () => sql.begin(async (tx) => (await tx`select txid_current() as xid`)[0].xid as string)));
      expect(new Set(ids).size).toBe(4);
      const [{ xid }] = await sql`select txid_current_if_assigned() as xid`;
      expect(xid).toBeNull();
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it("every sql.begin gets its own reserved connection, and no other query runs inside it", async () => {
    const sql = pool(3, 2);
    try {
      for (let round = 0; round < 10; round++) {
        const sleepers = Array.from({ length: 3 }, () => sql`select pg_sleep(0.05)`);
        const plain = Array.from({ length: 6 }, () => sql`select txid_current_if_assigned() as xid`);
        const transactions = Array.from({ length: 5 }, () =>
          sql.begin(async (tx) => {
            const [{ xid }] = await tx`select txid_current() as xid`;
            return xid as string;
          }),
        );
        const settled = await Promise.allSettled([...sleepers, ...plain, ...transactions]);
        const failures = settled.filter((s) => s.status === "rejected").map((s) => String((s as PromiseRejectedResult).reason));
        expect(failures).toEqual([]);
        // A plain query outside any transaction has no transaction id of its own.
        for (const s of settled.slice(3, 9)) expect((s as unknown as PromiseFulfilledResult<{ xid: string | null }[]>).value[0].xid).toBeNull();
        const ids = settled.slice(9).map((s) => (s as PromiseFulfilledResult<string>).value);
        expect(new Set(ids).size).toBe(5);
      }
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});
