import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "@/db/schema";
import { createApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { openDatabase } from "@/db/client";
import { CredentialCache, credentialTtlMs, followRevocations } from "@/server/auth/credential-cache";
import { scopes } from "@/server/auth/scopes";
import { expectError } from "../support/assertions";
import { onPostgres } from "../support/database";
import { startHarness, type Harness } from "../support/harness";

// Production remembers valid credentials for up to a second; a revocation must still win at once
// in this process and within that second anywhere else. The clock is ours, so nothing here is timed.

let h: Harness;
let now = 1_000_000;
beforeAll(async () => {
  h = await startHarness({ credentials: new CredentialCache({ now: () => now }) });
});
afterAll(async () => h?.close());

const newKey = () => createApiKey({ db: h.db, input: { accountId: h.main.account.id, scopes: [...scopes] } });

describe("the credential cache", () => {
  it("a key revoked through this process stops working at the next request", async () => {
    const key = await newKey();
    expect((await h.get("/v1/guests", { token: key.key })).status).toBe(200);
    expect(await revokeApiKey({ db: h.db, accountId: h.main.account.id, id: key.id })).toBe(true);
    expectError(await h.get("/v1/guests", { token: key.key }), 401, "token_revoked", null);
  });

  it("a key revoked by another process works until the cached answer is a second old, then never again", async () => {
    const key = await newKey();
    expect((await h.get("/v1/guests", { token: key.key })).status).toBe(200);
    // Another instance revokes it: only the database knows.
    await h.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
    now += credentialTtlMs - 1;
    expect((await h.get("/v1/guests", { token: key.key })).status).toBe(200);
    now += 1;
    expectError(await h.get("/v1/guests", { token: key.key }), 401, "token_revoked", null);
    now += 10 * credentialTtlMs;
    expectError(await h.get("/v1/guests", { token: key.key }), 401, "token_revoked", null);
  });

  it("a full cache forgets its least recently used credential, not every credential at once", async () => {
    const small = new CredentialCache({ now: () => now, maxEntries: 3 });
    const [a, b, c, d] = [await newKey(), await newKey(), await newKey(), await newKey()];
    for (const key of [a, b, c]) await small.authenticate({ db: h.db, token: key.key });
    await small.authenticate({ db: h.db, token: b.key }); // b used again: a is now the least recent
    await small.authenticate({ db: h.db, token: d.key }); // a fourth: one must go
    // Revoked in the database only: a remembered credential still answers from memory, a forgotten one asks.
    await h.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, a.id));
    await h.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, b.id));
    await h.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, d.id));
    expect((await small.authenticate({ db: h.db, token: b.key })).accountId).toBe(h.main.account.id);
    expect((await small.authenticate({ db: h.db, token: d.key })).accountId).toBe(h.main.account.id);
    await expect(small.authenticate({ db: h.db, token: a.key })).rejects.toMatchObject({ code: "token_revoked" });
    // A remembered credential still ends with its TTL.
    now += credentialTtlMs;
    await expect(small.authenticate({ db: h.db, token: b.key })).rejects.toMatchObject({ code: "token_revoked" });
  });

  // Another process on the same PostgreSQL database: a cluster worker, the dashboard's thread, another instance.
  it.runIf(onPostgres)("a revocation announced by another process on the database is followed at once, before the TTL", async () => {
    const key = await newKey();
    const other = await openDatabase({ url: h.databaseUrl!, migrate: false, max: 1 });
    const listening = await openDatabase({ url: h.databaseUrl!, migrate: false, max: 1 });
    try {
      await followRevocations(listening);
      expect((await h.get("/v1/guests", { token: key.key })).status).toBe(200);
      // The other process revokes in a transaction and announces it, as forgetCredentials does; this clock never moves.
      await other.db.transaction(async (tx) => {
        await tx.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
        await tx.execute(sql`select pg_notify('innkeep_credentials', '')`);
      });
      // Only the notification can end the cached answer: poll until it arrives (milliseconds; the test's own timeout bounds it).
      let status = 200;
      while (status === 200) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        status = (await h.get("/v1/guests", { token: key.key })).status;
      }
      expectError(await h.get("/v1/guests", { token: key.key }), 401, "token_revoked", null);
    } finally {
      await other.close();
      await listening.close();
    }
  });

  it("failures are not remembered: a key is refused until it exists, and works as soon as it does", async () => {
    expectError(await h.get("/v1/guests", { token: "hk_not_yet_a_key" }), 401, "invalid_token", null);
    const key = await newKey();
    expect((await h.get("/v1/guests", { token: key.key })).status).toBe(200);
    // A wrong token next to a cached right one is still wrong.
    expectError(await h.get("/v1/guests", { token: `${key.key}x` }), 401, "invalid_token", null);
  });
});
