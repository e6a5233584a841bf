// `npm run innkeep -- <command>`: accounts, API keys, users, OAuth apps, migrations, seed.
import { runCli } from "@/server/cli/run";

process.exitCode = await runCli(process.argv.slice(2));
// Nothing should be left running; if a driver keeps a handle open, do not hang the terminal.
setTimeout(() => process.exit(), 1_000).unref();
