import { createApiKey } from "@/server/auth/api-keys";
import { normalizeCidr } from "@/server/auth/ip-allow-list";
import { UsageError, defineCommand, optionalString, resolveAccount, scopesFlag, stringList } from "./command";

// api-keys create: an API key, shown once.
export const apiKeysCreate = defineCommand({
  name: "api-keys create",
  summary: "Create an API key (printed once; only its hash is stored).",
  usage: 'api-keys create [--account ID] --scopes "s1 s2 …" [--name N] [--allow-ip CIDR]…',
  options: {
    account: { type: "string" },
    scopes: { type: "string" },
    name: { type: "string" },
    "allow-ip": { type: "string", multiple: true },
  },
  parse(values) {
    const allowedIps = stringList(values, "allow-ip").map((cidr) => {
      const normalized = normalizeCidr(cidr.trim());
      if (!normalized) throw new UsageError(`--allow-ip must be an IPv4 or IPv6 address or CIDR range, not '${cidr}'.`);
      return normalized;
    });
    return { accountId: optionalString(values, "account"), scopes: scopesFlag(values, "scopes", true)!, name: optionalString(values, "name"), allowedIps };
  },
  async run({ database }, input) {
    const account = await resolveAccount(database, input.accountId);
    const key = await createApiKey({ db: database.db, input: { ...input, accountId: account.id } });
    return { id: key.id, key: key.key, scopes: key.scopes, allowed_ips: key.allowed_ips, account_id: account.id };
  },
  print: (r) =>
    [
      `Created API key ${r.id} for account ${r.account_id}. It is shown only now:`,
      ``,
      `  ${r.key}`,
      ``,
      `Scopes: ${r.scopes.join(" ")}`,
      `Allowed addresses: ${r.allowed_ips.length ? r.allowed_ips.join(", ") : "any"}`,
    ].join("\n"),
});
