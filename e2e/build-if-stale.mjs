// Rebuilds what is older than its sources: the dashboard (`next build`) and the compiled server
// (dist/server.mjs, which `npm start` runs), each only when a file it is made from changed.
import { execSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const nextSources = ["app", "components", "server", "db", "lib", "i18n", "messages", "proxy.ts", "public", "next.config.mjs", "postcss.config.mjs", "package.json", "tsconfig.json"];
const serverSources = ["server", "db", "scripts/build-server.mjs", "package.json", "tsconfig.json"];

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

function builtAt(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

const stale = (output, sources) => {
  const built = builtAt(output);
  return !built || Math.max(...sources.map(newest)) > built;
};

if (stale(".next/BUILD_ID", nextSources)) {
  process.stderr.write("e2e: building the dashboard (sources changed since the last build)\n");
  execSync("npx next build", { stdio: ["ignore", "ignore", "inherit"] });
}
if (stale("dist/server.mjs", serverSources)) {
  process.stderr.write("e2e: compiling the server (sources changed since the last build)\n");
  execSync("node scripts/build-server.mjs", { stdio: ["ignore", "ignore", "inherit"] });
}
