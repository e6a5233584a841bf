import { eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { createUser, staffRoles } from "@/server/auth/users";
import { CommandError, UsageError, defineCommand, oneOf, optionalString, requiredString, resolveAccount } from "./command";

// users create: a staff user who signs in to the dashboard.
export const usersCreate = defineCommand({
  name: "users create",
  summary: "Create a staff user for the dashboard.",
  usage: `users create --email E --password P --role ${staffRoles.join("|")} [--account ID]`,
  options: {
    email: { type: "string" },
    password: { type: "string" },
    role: { type: "string" },
    account: { type: "string" },
  },
  parse(values) {
    const email = requiredString(values, "email");
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError(`--email must be an e-mail address, not '${email}'.`);
    const password = requiredString(values, "password");
    if (password.length < 8) throw new UsageError("--password must have at least 8 characters.");
    const role = oneOf(values, "role", staffRoles);
    if (!role) throw new UsageError("--role is required.");
    return { email, password, role, accountId: optionalString(values, "account") };
  },
  async run({ database }, input) {
    const account = await resolveAccount(database, input.accountId);
    const email = input.email.toLowerCase();
    const [taken] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (taken) throw new CommandError(`A user with the e-mail ${email} already exists (${taken.id}).`);
    return createUser({ db: database.db, input: { ...input, accountId: account.id } });
  },
  print: (r) => `Created user ${r.id}: ${r.email} (${r.role}) in account ${r.account_id}. They can sign in now.`,
});
