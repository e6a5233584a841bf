// A throwaway PostgreSQL database for one benchmark run, on the server at BENCH_DATABASE_URL.
import { randomBytes } from "node:crypto";
import postgres from "postgres";

export type BenchDatabase = {
  name: string;
  /** The same server and credentials, this database. */
  url: string;
  /** Server version, for the notes. */
  version: string;
  drop(): Promise<void>;
};

export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `innkeep_bench_${randomBytes(5).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await admin.unsafe(`create database "${name}"`);
    const [{ server_version }] = await admin`show server_version`;
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    let dropped = false;
    return {
      name,
      url: url.toString(),
      version: `PostgreSQL ${String(server_version).split(" ")[0]}`,
      async drop() {
        if (dropped) return;
        dropped = true;
        const again = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
        try {
          // WITH (FORCE): a child killed mid-query may leave a backend behind for a moment.
          await again.unsafe(`drop database if exists "${name}" with (force)`);
        } finally {
          await again.end({ timeout: 2 });
        }
      },
    };
  } finally {
    await admin.end({ timeout: 2 });
  }
}
