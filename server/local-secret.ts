import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A secret made once for this machine outside production and kept in DATA_DIR (32 random bytes
 * in `encoding`), so what it protects survives restarts. Several processes starting together
 * agree on one: the file is created exclusively, and whoever loses the race reads the winner's.
 */
export function localSecret(dataDir: string, name: string, encoding: BufferEncoding): string {
  const file = path.resolve(dataDir, name);
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString(encoding), { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    return readFileSync(file, "utf8").trim();
  }
}
