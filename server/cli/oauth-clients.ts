import { createOAuthClient } from "@/server/oauth/clients";
import { scopes } from "@/server/auth/scopes";
import { UsageError, defineCommand, optionalString, requiredString, resolveAccount, scopesFlag, stringList } from "./command";

// oauth-clients create: registers an OAuth app (the record only; the flow is served by the app).
export const oauthClientsCreate = defineCommand({
  name: "oauth-clients create",
  summary: "Register an OAuth app (confidential by default; --public for PKCE-only clients).",
  usage: 'oauth-clients create --name N --redirect-uri U… [--scopes "…"] [--public] [--account ID]',
  options: {
    name: { type: "string" },
    "redirect-uri": { type: "string", multiple: true },
    scopes: { type: "string" },
    public: { type: "boolean" },
    account: { type: "string" },
  },
  parse(values) {
    const redirectUris = stringList(values, "redirect-uri").map((uri) => {
      let url: URL;
      try {
        url = new URL(uri);
      } catch {
        throw new UsageError(`--redirect-uri must be an absolute URL, not '${uri}'.`);
      }
      if (url.hash) throw new UsageError(`--redirect-uri may not carry a fragment: '${uri}'.`);
      return uri;
    });
    if (!redirectUris.length) throw new UsageError("At least one --redirect-uri is required.");
    return {
      name: requiredString(values, "name"),
      redirectUris,
      // An app asks for scopes at authorization time; by default it may ask for any.
      scopes: scopesFlag(values, "scopes", false) ?? [...scopes],
      public: values.public === true,
      accountId: optionalString(values, "account"),
    };
  },
  async run({ database }, input) {
    const account = await resolveAccount(database, input.accountId);
    const client = await createOAuthClient({ db: database.db, input: { ...input, accountId: account.id } });
    return { client_id: client.client_id, client_secret: client.client_secret, name: client.name, redirect_uris: client.redirect_uris, scopes: client.scopes, public: client.public };
  },
  print: (r) =>
    [
      `Registered OAuth app ${r.name}.`,
      `  client_id:     ${r.client_id}`,
      r.client_secret ? `  client_secret: ${r.client_secret}   (shown only now)` : `  public client: no secret; it must use PKCE (S256).`,
      `  redirect URIs: ${r.redirect_uris.join(", ")}`,
      `  scopes:        ${r.scopes.join(" ")}`,
    ].join("\n"),
});
