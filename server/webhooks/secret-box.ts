import { eq, and } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookSecrets } from "@/db/schema";
import { isSealed, keyIdOf, openSecret, sealSecret, secretKeyRing } from "@/server/sealed-secrets";
import type { KeyRing } from "@/server/secret-keys";

// Sealing itself is the kernel's (server/sealed-secrets.ts), shared with payment processors' keys.
export { openSecret, sealSecret, secretKeyRing };

let cachedRing: KeyRing | undefined;
const ring = () => (cachedRing ??= secretKeyRing());

/**
 * Seals every stored secret that is still plain (rows from before encryption) or sealed under a
 * key other than the first (after a rotation), so an old key can then be dropped from the list.
 * Runs at every start; safe beside other instances (each row is replaced only if unchanged). A row
 * under a key no longer listed is left as it is and counted in `unreadable`.
 */
export async function resealSecrets(db: Db, keys: KeyRing = ring()): Promise<{ rewritten: number; unreadable: number }> {
  const rows = await db.select({ id: webhookSecrets.id, secret: webhookSecrets.secret }).from(webhookSecrets);
  let rewritten = 0;
  let unreadable = 0;
  for (const row of rows) {
    if (isSealed(row.secret) && keyIdOf(row.secret) === keys.primary.id) continue;
    let secret: string;
    try {
      secret = openSecret(row.secret, row.id, keys);
    } catch {
      unreadable++;
      continue;
    }
    const changed = await db
      .update(webhookSecrets)
      .set({ secret: sealSecret(secret, row.id, keys) })
      .where(and(eq(webhookSecrets.id, row.id), eq(webhookSecrets.secret, row.secret)))
      .returning({ id: webhookSecrets.id });
    rewritten += changed.length;
  }
  return { rewritten, unreadable };
}
