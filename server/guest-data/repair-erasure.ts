import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { auditLog, dataRepairs, events, guests, idempotencyKeys, invoices, reservations } from "@/db/schema";
import { newId } from "@/server/ids";
import { holdingsOf } from "./erase-guest";
import { erasedText, eraseFromJson, escapeRegExp, type ErasureScope } from "./erasure-rules";

/**
 * Repairs what erasure damaged before it went by field (issue 41): it replaced a guest's short
 * values ("0", "a", a year) inside every string of the stored payloads, ids and timestamps too.
 * Once per database (a `done` row in `data_repairs` says so), at start:
 * - a damaged id is `restored` when exactly one id of the account fits it, and what each
 *   `[erased]` stood for is learnt from it (for the account's other rows too);
 * - another damaged value is `restored` from its object's stored row where the column fits the
 *   damage (a creation time, a stay's dates); else, where exactly one filling with what was learnt
 *   is valid for its kind, `approximated` with it; else an event's timestamp is `approximated` by
 *   the event's own time; anything else is left as it was, `unrecoverable`;
 * - a repaired row is then erased again by field, for an object whose id had been damaged was not
 *   recognised as the guest's and kept their names.
 * Every field changed, or left, is a row of `data_repairs`.
 */
export const erasureRepair = "erasure_substrings";

type Json = Record<string, unknown>;
type Finding = { path: string; damaged: string; restored: string | null; outcome: "restored" | "approximated" | "unrecoverable" };

const marker = erasedText;
const isDamaged = (v: unknown): v is string => typeof v === "string" && v.includes(marker) && v !== marker;
const idLike = (key: string, value: string) => key === "id" || key.endsWith("_id") || /^[a-z[\]]+_[0-9A-Za-z[\]]{16,}$/.test(value.replaceAll(marker, "x"));
const timestampKey = (key: string) => key.endsWith("_at");
const dateKeys = new Set(["date", "check_in", "check_out", "from", "to", "issue_date"]);
const validTimestamp = (v: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().slice(0, 19) === v.slice(0, 19);
const validDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const escapeLike = (s: string) => s.replace(/[\\%_]/g, "\\$&");

/** Every damaged string leaf of a JSON value, with its path and the key it stands under. */
function damagedLeaves(value: unknown, path: string[] = []): { path: string[]; key: string; value: string }[] {
  if (isDamaged(value)) return [{ path, key: [...path].reverse().find((p) => !/^\d+$/.test(p)) ?? "", value }];
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => damagedLeaves(v, [...path, k]));
  return [];
}

function setAt(root: unknown, path: string[], value: unknown) {
  let node = root as Json;
  for (const p of path.slice(0, -1)) node = node[p] as Json;
  node[path.at(-1)!] = value;
}

/** Every way of filling the `[erased]` of `damaged` with the terms, at most `limit`. */
function fillings(damaged: string, terms: string[], limit = 4096): string[] {
  const parts = damaged.split(marker);
  let out = [parts[0]];
  for (const part of parts.slice(1)) {
    out = out.flatMap((head) => terms.map((t) => head + t + part));
    if (out.length > limit) return [];
  }
  return out;
}

/** What a value must look like to be a damaged one's original: each `[erased]` a few characters (captured, to learn them). */
const fitting = (damaged: string, capture = false) => new RegExp(`^${damaged.split(marker).map(escapeRegExp).join(capture ? "(.{1,64}?)" : ".{1,64}?")}$`, "s");

/** The account's ids that fit a damaged one, and what each `[erased]` stood for in the one that fits. */
async function idsFitting(db: Db, idTables: string[], accountId: string, damaged: string) {
  const like = damaged.split(marker).map(escapeLike).join("%");
  const union = sql.join(
    idTables.map((t) => sql`select id from ${sql.identifier(t)} where account_id = ${accountId} and id like ${like}`),
    sql` union `,
  );
  const fit = fitting(damaged, true);
  const found = rowsOf<{ id: string }>(await db.execute(sql`${union} limit 3`))
    .map((r) => ({ id: r.id, match: fit.exec(r.id) }))
    .filter((r) => r.match);
  return found.map((r) => ({ id: r.id, terms: r.match!.slice(1) }));
}

/** The damaged ids of one stored value restored in place; what each `[erased]` stood for is added to `learnt`. */
async function restoreIds(db: Db, idTables: string[], accountId: string, value: unknown, where: string, learnt: Set<string>): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const leaf of damagedLeaves(value).filter((l) => idLike(l.key, l.value))) {
    const fits = await idsFitting(db, idTables, accountId, leaf.value);
    const restored = fits.length === 1 ? fits[0].id : null;
    if (restored) {
      setAt(value, leaf.path, restored);
      for (const t of fits[0].terms) for (const v of [t, t.toLowerCase(), t.toUpperCase()]) learnt.add(v);
    }
    findings.push({ path: `${where}.${leaf.path.join(".")}`, damaged: leaf.value, restored, outcome: restored ? "restored" : "unrecoverable" });
  }
  return findings;
}

/** The tables whose rows the API presents with each id prefix: where an object's stored fields can be read again. */
const tableOf: Record<string, string> = { gst: "guests", res: "reservations", fol: "folios", pay: "payments", re: "refunds", grp: "groups", prop: "properties", rt: "room_types", room: "rooms", rp: "rate_plans", inv: "invoices", tax: "taxes", chg: "folio_charges", rmv: "room_moves" };

/** The stored row of an object by its id, its columns as the API names its fields, times as the API writes them. */
async function storedRow(db: Db, id: string): Promise<Record<string, string> | null> {
  const table = tableOf[id.slice(0, id.indexOf("_"))];
  if (!table) return null;
  const [row] = rowsOf<{ row: Record<string, unknown> }>(await db.execute(sql`select to_jsonb(t) as row from ${sql.identifier(table)} t where id = ${id}`));
  if (!row) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(row.row)) {
    if (typeof v !== "string") continue;
    out[k] = /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v).toISOString() : v;
  }
  return out;
}

/**
 * The other damaged values, in place: restored from the object's own stored row where its column
 * fits the damage (a creation time, a stay's dates); else, where one filling of what the
 * account's ids taught is valid, that filling, as `approximated` (a term the ids did not show may
 * have stood there too); else an event's timestamp stands in as the event's time (`approximated`);
 * else left, `unrecoverable`.
 */
async function restoreOthers(db: Db, value: unknown, where: string, learnt: Set<string>, eventTime: string | null): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const leaf of damagedLeaves(value)) {
    const valid = timestampKey(leaf.key) ? validTimestamp : dateKeys.has(leaf.key) ? validDate : () => true;
    const fit = fitting(leaf.value);
    // The object the field belongs to: the nearest enclosing one with an id.
    let owner: unknown = undefined;
    let node: unknown = value;
    for (const p of leaf.path.slice(0, -1)) {
      node = (node as Json)[p];
      if (node && typeof node === "object" && typeof (node as Json).id === "string") owner = (node as Json).id;
    }
    if (leaf.path.length === 1 && value && typeof value === "object" && typeof (value as Json).id === "string") owner = (value as Json).id;
    const stored = typeof owner === "string" ? (await storedRow(db, owner))?.[leaf.key] : undefined;
    let restored: string | null = null;
    let outcome: Finding["outcome"] = "unrecoverable";
    if (stored !== undefined && fit.test(stored) && valid(stored)) [restored, outcome] = [stored, "restored"];
    else {
      const candidates = [...new Set(fillings(leaf.value, [...learnt]).filter(valid))];
      if (candidates.length === 1) [restored, outcome] = [candidates[0], "approximated"];
      else if (timestampKey(leaf.key) && eventTime) [restored, outcome] = [eventTime, "approximated"];
    }
    if (restored) setAt(value, leaf.path, restored);
    findings.push({ path: `${where}.${leaf.path.join(".")}`, damaged: leaf.value, restored, outcome });
  }
  return findings;
}

/** The erased guests a value names by id (once its ids are restored), each with the scope their erasure had. */
async function erasedScopes(db: Db, value: unknown): Promise<ErasureScope[]> {
  const text = JSON.stringify(value);
  const named = (prefix: string) => [...new Set(text.match(new RegExp(`${prefix}_[0-9A-Za-z]+`, "g")) ?? [])];
  // The guest by their own id, or by a stay of theirs (an invoice names its folio and reservation only).
  const [reservationIds, folioIds] = [named("res"), named("fol")];
  const stays =
    reservationIds.length || folioIds.length
      ? await db
          .select({ guestId: reservations.guestId })
          .from(reservations)
          .where(or(inArray(reservations.id, reservationIds.length ? reservationIds : [""]), inArray(reservations.folioId, folioIds.length ? folioIds : [""])))
      : [];
  const guestIds = [...new Set([...named("gst"), ...stays.map((s) => s.guestId)])];
  if (!guestIds.length) return [];
  const erased = await db.select({ id: guests.id }).from(guests).where(and(inArray(guests.id, guestIds), isNotNull(guests.erasedAt)));
  // Their words are gone with the guest row: the fields that hold them are emptied by their rules, no text is searched.
  return Promise.all(erased.map(async ({ id }) => ({ ...(await holdingsOf(db, id)).held, namesThem: () => false })));
}

async function reErased<T>(db: Db, value: T): Promise<T> {
  let out: unknown = value;
  for (const scope of await erasedScopes(db, value)) out = eraseFromJson(out, scope);
  return out as T;
}

/** Runs the repair once: answers what it found, or null when it had already run. */
export async function repairErasureDamage(db: Db): Promise<{ rows: number; restored: number; approximated: number; unrecoverable: number } | null> {
  const [done] = await db.select({ id: dataRepairs.id }).from(dataRepairs).where(and(eq(dataRepairs.repair, erasureRepair), eq(dataRepairs.outcome, "done"))).limit(1);
  if (done) return null;
  const idTables = rowsOf<{ table_name: string }>(
    await db.execute(sql`
      select c.table_name from information_schema.columns c
      join information_schema.columns a on a.table_schema = c.table_schema and a.table_name = c.table_name and a.column_name = 'account_id'
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema = current_schema() and c.column_name = 'id' order by 1`),
  ).map((r) => r.table_name);
  const pattern = `%${marker}%`;
  const records: (typeof dataRepairs.$inferInsert)[] = [];
  let rows = 0;
  const note = (table: string, rowId: string, findings: Finding[]) => {
    rows++;
    for (const f of findings) records.push({ id: newId("dataRepair"), repair: erasureRepair, tableName: table, rowId, path: f.path, damaged: f.damaged, restored: f.restored, outcome: f.outcome });
  };

  // The damaged rows, each value with where it goes back; ids are restored first, across all rows,
  // for what an id says each `[erased]` stood for holds for the other rows of the same erasure.
  type Part = { where: string; value: unknown };
  type Damaged = { table: string; rowId: string; accountId: string; eventTime: string | null; parts: Part[]; save: (parts: unknown[]) => Promise<unknown> };
  const damaged: Damaged[] = [];
  for (const e of await db.select().from(events).where(sql`${events.object}::text like ${pattern}`)) {
    damaged.push({ table: "events", rowId: e.id, accountId: e.accountId, eventTime: e.createdAt.toISOString(), parts: [{ where: "object", value: structuredClone(e.object) }], save: ([object]) => db.update(events).set({ object: object as Json }).where(eq(events.id, e.id)) });
  }
  for (const a of await db.select().from(auditLog).where(sql`coalesce(${auditLog.before}::text, '') || coalesce(${auditLog.after}::text, '') like ${pattern}`)) {
    const parts = [{ where: "before", value: structuredClone(a.before) }, { where: "after", value: structuredClone(a.after) }];
    damaged.push({ table: "audit_log", rowId: a.id, accountId: a.accountId, eventTime: null, parts, save: ([before, after]) => db.update(auditLog).set({ before, after }).where(eq(auditLog.id, a.id)) });
  }
  for (const k of await db.select().from(idempotencyKeys).where(sql`${idempotencyKeys.responseBody} like ${pattern}`)) {
    let body: unknown;
    try {
      body = JSON.parse(k.responseBody!);
    } catch {
      continue;
    }
    const key = and(eq(idempotencyKeys.accountId, k.accountId), eq(idempotencyKeys.livemode, k.livemode), eq(idempotencyKeys.key, k.key));
    damaged.push({ table: "idempotency_keys", rowId: k.key, accountId: k.accountId, eventTime: null, parts: [{ where: "response_body", value: body }], save: ([b]) => db.update(idempotencyKeys).set({ responseBody: JSON.stringify(b) }).where(key) });
  }
  for (const inv of await db.select().from(invoices).where(sql`${invoices.snapshot}::text like ${pattern}`)) {
    damaged.push({ table: "invoices", rowId: inv.id, accountId: inv.accountId, eventTime: null, parts: [{ where: "snapshot", value: structuredClone(inv.snapshot) }], save: ([snapshot]) => db.update(invoices).set({ snapshot: snapshot as Json }).where(eq(invoices.id, inv.id)) });
  }

  const learnt = new Map<string, Set<string>>();
  const found = new Map<Damaged, Finding[]>();
  for (const row of damaged) {
    const terms = learnt.get(row.accountId) ?? new Set<string>();
    learnt.set(row.accountId, terms);
    for (const part of row.parts) found.set(row, [...(found.get(row) ?? []), ...(await restoreIds(db, idTables, row.accountId, part.value, part.where, terms))]);
  }
  for (const row of damaged) {
    const findings = [...found.get(row)!];
    for (const part of row.parts) findings.push(...(await restoreOthers(db, part.value, part.where, learnt.get(row.accountId)!, row.eventTime)));
    if (!findings.length) continue;
    // The invoice's snapshot has no ids of the guest's to go by: it was erased whole at the time.
    await row.save(row.table === "invoices" ? row.parts.map((p) => p.value) : await Promise.all(row.parts.map((p) => reErased(db, p.value))));
    note(row.table, row.rowId, findings);
  }

  records.push({ id: newId("dataRepair"), repair: erasureRepair, outcome: "done" });
  for (let i = 0; i < records.length; i += 500) await db.insert(dataRepairs).values(records.slice(i, i + 500));
  const count = (o: Finding["outcome"]) => records.filter((r) => r.outcome === o).length;
  return { rows, restored: count("restored"), approximated: count("approximated"), unrecoverable: count("unrecoverable") };
}
