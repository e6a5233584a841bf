import { eq, and } from "drizzle-orm";
import type { Db } from "@/db/client";
import { paymentProcessors, webhookSecrets } from "@/db/schema";
import { isSealed, keyIdOf, openSecret, sealSecret, secretKeyRing } from "@/server/sealed-secrets";
import type { KeyRing } from "@/server/secret-keys";

// Sealing itself is the kernel's (server/sealed-secrets.ts), shared with payment processors' keys.
export { openSecret, sealSecret, secretKeyRing };

let cachedRing: KeyRing | undefined;
const ring = () => (cachedRing ??= secretKeyRing());

/**
 * Seals every stored secret that is still plain (rows from before encryption) or sealed under a
 * key other than the first (after a rotation), so an old key can then be dropped from the list:
 * webhook signing secrets, and payment processors' keys and webhook secrets. Runs at every start;
 * safe beside other instances (each value is replaced only if unchanged). A value under a key no
 * longer listed is left as it is and counted in `unreadable`.
 */
export async function resealSecrets(db: Db, keys: KeyRing = ring()): Promise<{ rewritten: number; unreadable: number }> {
  const count = { rewritten: 0, unreadable: 0 };
  /** The value sealed under the first key, or null when it already is (or cannot be opened). */
  const resealed = (stored: string, boundTo: string): string | null => {
    if (isSealed(stored) && keyIdOf(stored) === keys.primary.id) return null;
    try {
      return sealSecret(openSecret(stored, boundTo, keys), boundTo, keys);
    } catch {
      count.unreadable++;
      return null;
    }
  };
  for (const row of await db.select({ id: webhookSecrets.id, secret: webhookSecrets.secret }).from(webhookSecrets)) {
    const secret = resealed(row.secret, row.id);
    if (!secret) continue;
    const changed = await db
      .update(webhookSecrets)
      .set({ secret })
      .where(and(eq(webhookSecrets.id, row.id), eq(webhookSecrets.secret, row.secret)))
      .returning({ id: webhookSecrets.id });
    count.rewritten += changed.length;
  }
  const processors = await db
    .select({ id: paymentProcessors.id, secretKey: paymentProcessors.secretKey, webhookSecret: paymentProcessors.webhookSecret })
    .from(paymentProcessors);
  for (const row of processors) {
    const secretKey = resealed(row.secretKey, row.id);
    const webhookSecret = row.webhookSecret ? resealed(row.webhookSecret, `${row.id}:webhook`) : null;
    if (!secretKey && !webhookSecret) continue;
    const changed = await db
      .update(paymentProcessors)
      .set({ ...(secretKey ? { secretKey } : {}), ...(webhookSecret ? { webhookSecret } : {}) })
      .where(and(eq(paymentProcessors.id, row.id), eq(paymentProcessors.secretKey, row.secretKey)))
      .returning({ id: paymentProcessors.id });
    count.rewritten += changed.length;
  }
  return count;
}
