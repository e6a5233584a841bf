// Runs `next build` when there is no build, or when a source file changed after it.
import { execSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const sources = ["app", "components", "server", "db", "next.config.mjs", "postcss.config.mjs", "package.json", "tsconfig.json"];

function newest(entry) {
  let stat;
  try {
    stat = statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newest(path.join(entry, name))), stat.mtimeMs);
}

let built = 0;
try {
  built = statSync(".next/BUILD_ID").mtimeMs;
} catch {
  built = 0;
}
if (!built || Math.max(...sources.map(newest)) > built) {
  process.stderr.write("e2e: building the dashboard (sources changed since the last build)\n");
  execSync("npx next build", { stdio: ["ignore", "ignore", "inherit"] });
}
