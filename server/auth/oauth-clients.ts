import type { Executor } from "@/db/client";
import { oauthClients } from "@/db/schema";
import { newId } from "@/server/ids";
import type { Scope } from "./scopes";
import { hashToken, newSecret } from "./tokens";

export type CreateOAuthClientInput = {
  accountId: string;
  name: string;
  redirectUris: string[];
  scopes: Scope[];
  public?: boolean;
};

/** Registers an OAuth app. Confidential clients get a secret, shown once and stored hashed. */
export async function createOAuthClient({ db, input }: { db: Executor; input: CreateOAuthClientInput }) {
  for (const uri of input.redirectUris) {
    const url = new URL(uri);
    if (url.hash) throw new Error(`A redirect URI may not carry a fragment: ${uri}`);
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
    })
    .returning();
  return { client_id: row.id, client_secret: secret, name: row.name, redirect_uris: row.redirectUris, scopes: row.scopes, public: row.public };
}
