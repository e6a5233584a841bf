import type { ParseArgsConfig } from "node:util";
import { asc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { accounts } from "@/db/schema";
import { demoAccountName } from "@/server/accounts/seed-demo";
import { parseScopes, type Scope } from "@/server/auth/scopes";

/** A mistake in the command line: the CLI prints the message and the command's usage (exit 2). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

/** The command was well formed but cannot be carried out (unknown account, taken e-mail…): exit 1. */
export class CommandError extends Error {}

/** Where a command runs: the database, and what the process running it knows. */
export type CommandContext = {
  database: Database;
  /** NODE_ENV=production in the process that executes the command (no default password then). */
  production: boolean;
  /** ADMIN_PASSWORD as the person running the CLI set it, else the server's. */
  adminPassword?: string;
};

type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

/**
 * One CLI command: its flags (node:util parseArgs), how they become an input, how it runs and
 * how its result reads for a person. The result itself is what `--json` prints.
 */
export type CommandSpec<Input = unknown, Result extends object = object> = {
  /** "api-keys create" */
  name: string;
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  parse(values: Values): Input;
  run(ctx: CommandContext, input: Input): Promise<Result>;
  print(result: Result): string;
};

export const defineCommand = <Input, Result extends object>(spec: CommandSpec<Input, Result>) => spec as unknown as CommandSpec;

export function requiredString(values: Values, flag: string): string {
  const value = values[flag];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${flag} is required.`);
  return value.trim();
}

export function optionalString(values: Values, flag: string): string | undefined {
  const value = values[flag];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${flag} needs a value.`);
  return value.trim();
}

export function positiveInt(values: Values, flag: string): number | undefined {
  const text = optionalString(values, flag);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--${flag} must be a whole number of requests above 0, not '${text}'.`);
  }
  return Number(text);
}

export function oneOf<T extends string>(values: Values, flag: string, allowed: readonly T[]): T | undefined {
  const text = optionalString(values, flag);
  if (text === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(text)) throw new UsageError(`--${flag} must be one of ${allowed.join(", ")}, not '${text}'.`);
  return text as T;
}

/** `--scopes "reservations:read rooms:read"` (space or `+` separated); unknown scopes are named. */
export function scopesFlag(values: Values, flag: string, required: boolean): Scope[] | undefined {
  const text = required ? requiredString(values, flag) : optionalString(values, flag);
  if (text === undefined) return undefined;
  const { valid, unknown } = parseScopes(text);
  if (unknown.length) throw new UsageError(`Unknown scope${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}.`);
  if (!valid.length) throw new UsageError(`--${flag} names no scope.`);
  return valid;
}

export function stringList(values: Values, flag: string): string[] {
  const value = values[flag];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** The account a command acts on: `--account`, else the seeded Demo Hotels (contract §0). */
export async function resolveAccount(database: Database, accountId: string | undefined) {
  const { db } = database;
  if (accountId) {
    const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1);
    if (!account) throw new CommandError(`No account with id '${accountId}'.`);
    return account;
  }
  const [account] = await db.select().from(accounts).where(eq(accounts.name, demoAccountName)).orderBy(asc(accounts.createdAt)).limit(1);
  if (!account) {
    throw new CommandError(`No account named '${demoAccountName}' to default to: pass --account acct_…, or seed the database first (db seed).`);
  }
  return account;
}
