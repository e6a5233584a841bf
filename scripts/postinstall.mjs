// `npm install`'s postinstall: apply patches/ to installed packages with patch-package (a
// development dependency). An install without development dependencies (`--omit=dev`) has no
// patch-package; there it only checks that the patched postgres.js is already in place (an
// install that was patched, then pruned) and refuses otherwise, since the server must not run on
// the unpatched driver (README, "Start").
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

let patchPackage;
try {
  patchPackage = require.resolve("patch-package/index.js");
} catch {
  patchPackage = undefined;
}

if (patchPackage) {
  const run = spawnSync(process.execPath, [patchPackage], { stdio: "inherit" });
  process.exit(run.status ?? 1);
}

const marker = "Patched (porsager/postgres#823, #1218)";
const connection = readFileSync(new URL("../node_modules/postgres/src/connection.js", import.meta.url), "utf8");
if (!connection.includes(marker)) {
  console.error(
    "postgres.js is not patched and patch-package is not installed (development dependencies omitted).\n" +
      "Install with development dependencies (`npm install`), which applies patches/, then prune if you wish.",
  );
  process.exit(1);
}
