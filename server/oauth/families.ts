import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { oauthTokens } from "@/db/schema";
import { forgetCredentials } from "@/server/auth/credential-cache";

/**
 * Revokes every token descending from one authorization code: what a reused code or a replayed
 * refresh token costs its holder (RFC 6819 §5.2.2.3), and what revoking a refresh token means.
 */
export async function revokeFamily(db: Executor, familyId: string): Promise<void> {
  await db
    .update(oauthTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(oauthTokens.familyId, familyId), isNull(oauthTokens.revokedAt)));
  // Every process's cache of valid credentials forgets it when this commits.
  await forgetCredentials(db);
}

/** Revokes every token of an install: the dashboard's "Revoke". */
export async function revokeInstallTokens(db: Executor, installId: string): Promise<void> {
  await db
    .update(oauthTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(oauthTokens.installId, installId), isNull(oauthTokens.revokedAt)));
  await forgetCredentials(db);
}
