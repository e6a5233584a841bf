import type { Executor } from "@/db/client";
import { oauthClients } from "@/db/schema";
import { newId } from "@/server/ids";
import { redirectUriProblem } from "./schemas";
import type { Scope } from "@/server/auth/scopes";
import { hashToken, newSecret } from "@/server/auth/tokens";

export type CreateOAuthClientInput = {
  accountId: string;
  name: string;
  redirectUris: string[];
  scopes: Scope[];
  public?: boolean;
  /** The staff member who registered it (none from the CLI). */
  createdBy?: string | null;
};

/** Registers an OAuth app. Confidential clients get a secret, shown once and stored hashed. */
export async function createOAuthClient({ db, input }: { db: Executor; input: CreateOAuthClientInput }) {
  if (!input.redirectUris.length) throw new Error("An app needs at least one redirect URI.");
  for (const uri of input.redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new Error(`Redirect URI ${uri} ${problem}.`);
  }
  const secret = input.public ? null : newSecret("appsec");
  const [row] = await db
    .insert(oauthClients)
    .values({
      id: newId("oauthClient"),
      accountId: input.accountId,
      name: input.name,
      secretHash: secret ? hashToken(secret) : null,
      redirectUris: input.redirectUris,
      scopes: input.scopes,
      public: input.public ?? false,
      createdBy: input.createdBy ?? null,
    })
    .returning();
  return { client_id: row.id, client_secret: secret, name: row.name, redirect_uris: row.redirectUris, scopes: row.scopes, public: row.public };
}
