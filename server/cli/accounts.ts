import { createAccount } from "@/server/accounts/create-account";
import { plans } from "@/server/plans";
import { defineCommand, oneOf, positiveInt, requiredString } from "./command";

// accounts create: a new account with its seeded sandbox hotel.
export const accountsCreate = defineCommand({
  name: "accounts create",
  summary: "Create an account (it gets its own sandbox hotel).",
  usage: "accounts create --name N [--plan starter|growth|scale|enterprise] [--per-minute N --per-second N --per-day N]",
  options: {
    name: { type: "string" },
    plan: { type: "string" },
    "per-minute": { type: "string" },
    "per-second": { type: "string" },
    "per-day": { type: "string" },
  },
  parse(values) {
    return {
      name: requiredString(values, "name"),
      plan: oneOf(values, "plan", plans),
      limits: { perMinute: positiveInt(values, "per-minute"), perSecond: positiveInt(values, "per-second"), perDay: positiveInt(values, "per-day") },
    };
  },
  async run({ database }, input) {
    const account = await createAccount({ db: database.db, input });
    return { id: account.id, name: account.name, plan: account.plan };
  },
  print: (r) => `Created account ${r.id} (${r.name}, plan ${r.plan}).`,
});
