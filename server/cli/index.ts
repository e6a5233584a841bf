import { parseArgs } from "node:util";
import { accountsCreate } from "./accounts";
import { apiKeysCreate } from "./api-keys";
import { type CommandContext, type CommandSpec, UsageError } from "./command";
import { dbMigrate, dbSeed } from "./db";
import { oauthClientsCreate } from "./oauth-clients";
import { usersCreate } from "./users";

/** Every command of `npm run innkeep -- <command>` (contract §0). */
export const commands: CommandSpec[] = [accountsCreate, apiKeysCreate, usersCreate, oauthClientsCreate, dbMigrate, dbSeed];

/**
 * How the CLI is run from the repository. `--silent` because npm prints its own banner
 * ("> innkeep@… innkeep") on stdout before the script's output, which would spoil `--json | jq`.
 */
export const invocation = "npm run --silent innkeep --";

export const usage = [
  `Usage: ${invocation} <command> [flags] [--json]`,
  "",
  "Commands:",
  ...commands.map((c) => `  ${c.usage}\n      ${c.summary}`),
  "",
  "--json prints the result (or the error) as JSON; npm's --silent keeps npm's own banner off stdout,",
  "so the JSON pipes cleanly (the built CLI, node dist/innkeep.mjs, has no banner).",
  "While a server runs on the embedded database,",
  "commands are carried out by that server; otherwise the CLI opens the database itself.",
].join("\n");

export type ParsedCommand = { spec: CommandSpec; input: unknown; json: boolean };
export type ParseResult = { help: string; json: boolean } | ParsedCommand;

/** Reads `<group> <verb> [flags]`. Throws UsageError naming what is wrong. */
export function parseCommand(argv: string[]): ParseResult {
  // Global flags may also come before the command: `innkeep --json accounts create …`.
  let start = 0;
  while (start < argv.length && ["--json", "--help", "-h"].includes(argv[start])) start++;
  const [group, verb] = argv.slice(start);
  const rest = [...argv.slice(0, start), ...argv.slice(start + 2)];
  const json = rest.includes("--json");
  const wantsHelp = rest.includes("--help") || rest.includes("-h");
  if (!group || group === "help") return { help: usage, json };
  const spec = commands.find((c) => c.name === `${group} ${verb}`);
  if (!spec) {
    const verbs = commands.filter((c) => c.name.startsWith(`${group} `)).map((c) => c.name.split(" ")[1]);
    const hint = verbs.length ? `'${group}' takes: ${verbs.join(", ")}.` : `Commands: ${[...new Set(commands.map((c) => c.name.split(" ")[0]))].join(", ")}.`;
    throw new UsageError(`Unknown command '${[group, verb].filter(Boolean).join(" ")}'. ${hint}`, usage);
  }
  if (wantsHelp) return { help: `Usage: ${invocation} ${spec.usage} [--json]\n\n${spec.summary}`, json };
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { ...spec.options, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // node:util's messages name the flag; its advice about `--` does not apply here.
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, "").replace(/([^.])$/, "$1.");
    throw new UsageError(message, `Usage: ${invocation} ${spec.usage} [--json]`);
  }
  try {
    return { spec, input: spec.parse(values), json };
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(error.message, `Usage: ${invocation} ${spec.usage} [--json]`);
    throw error;
  }
}

/** Runs a parsed command; both the CLI process and the running server call this. */
export async function executeCommand(ctx: CommandContext, parsed: ParsedCommand): Promise<object> {
  return parsed.spec.run(ctx, parsed.input);
}

/** A result as the person at the terminal reads it, or as JSON with --json. */
export function formatResult(parsed: ParsedCommand, result: object): string {
  return parsed.json ? JSON.stringify(result, null, 2) : parsed.spec.print(result);
}
