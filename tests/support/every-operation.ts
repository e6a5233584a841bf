// For the tests that try every operation of the document against the database: whether a request
// changed anything (a digest of every table), and an operation's path aimed at a chosen object.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";

/** One digest per table: any row added, removed or changed shows. */
export async function tableDigests(db: Db): Promise<Record<string, string>> {
  const tables = rowsOf<{ table_name: string }>(
    await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`),
  ).map((t) => t.table_name);
  const digests: Record<string, string> = {};
  // An API key's last use is stamped (once a minute) by any request, refused or not: not a change of data.
  for (const table of tables.filter((t) => t !== "api_keys")) {
    const [row] = rowsOf<{ d: string | null }>(await db.execute(sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as d from ${sql.identifier(table)} t`));
    digests[table] = row.d ?? "";
  }
  return digests;
}

/** The operation's path with each parameter the object of the collection before it (`/invoices/{id}/pdf` → `byCollection.invoices`). */
export function aimedPath(path: string, byCollection: Record<string, string>): string {
  const segments = path.split("/");
  return segments
    .map((part, i) => {
      if (!/^\{\w+\}$/.test(part)) return part;
      const id = byCollection[segments[i - 1]];
      if (!id) throw new Error(`No object for ${path}: add one of '${segments[i - 1]}' to the setup`);
      return id;
    })
    .join("/");
}
