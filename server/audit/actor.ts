import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys, oauthClients, oauthInstalls } from "@/db/schema";
import type { Principal } from "@/server/auth/authenticate-token";
import type { AuditActor } from "./audit";

/** Who a `/v1` change is by on the trail: the API key, or the app whose install holds the token, with its name now. */
export async function apiActor(db: Executor, principal: Principal): Promise<AuditActor> {
  if (principal.kind === "api_key") {
    const [key] = await db.select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.id, principal.credentialId));
    return { type: "api_key", id: principal.credentialId, name: key?.name ?? null };
  }
  const [app] = await db
    .select({ name: oauthClients.name })
    .from(oauthInstalls)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthInstalls.clientId))
    .where(eq(oauthInstalls.id, principal.credentialId));
  return { type: "oauth_app", id: principal.credentialId, name: app?.name ?? null };
}
