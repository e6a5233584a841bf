import { sql } from "drizzle-orm";
import { rowsOf, type Executor } from "@/db/client";
import { daysBetween, todayIn, type IsoDate } from "@/lib/dates";
import { capturedStatuses } from "@/server/folios/folios";
import { dateKey, toPage, type CursorPosition, type Page, type PageRequest } from "@/server/pagination";
import { businessToday } from "@/server/properties/business-date";
import type { Ctx } from "@/server/tenancy";
import { ageingBuckets, type AgeingBucket, type ReceivableFilters, type ReceivableKind } from "./schemas";

/** One open balance, as the service reads it; `createdAt` is its sort key (the due date), as pages need. */
export type Receivable = {
  id: string;
  createdAt: Date;
  livemode: boolean;
  propertyId: string;
  currency: string;
  balance: number;
  kind: ReceivableKind;
  guest: { id: string; name: string };
  group: { id: string; name: string } | null;
  stay: { reservationId: string; status: "checked_out" | "no_show" | "cancelled"; checkIn: IsoDate; checkOut: IsoDate };
  invoiceId: string | null;
  dueDate: IsoDate;
  ageDays: number;
  bucket: AgeingBucket;
};

type Row = {
  folio_id: string;
  livemode: boolean;
  property_id: string;
  currency: string;
  balance: string | number;
  reservation_id: string;
  status: Receivable["stay"]["status"];
  check_in: string | Date;
  check_out: string | Date;
  cancelled_at: string | Date | null;
  guest_id: string;
  first_name: string;
  last_name: string;
  group_id: string | null;
  group_name: string | null;
  invoice_id: string | null;
  issue_date: string | null;
  timezone: string;
  business_date: string | Date | null;
};

const isoDate = (d: string | Date): IsoDate => (d instanceof Date ? d.toISOString().slice(0, 10) : d.slice(0, 10));

/** 0–30, 31–60, 61–90, over 90 days. */
export function bucketOf(ageDays: number): AgeingBucket {
  if (ageDays <= 30) return "days_0_30";
  if (ageDays <= 60) return "days_31_60";
  if (ageDays <= 90) return "days_61_90";
  return "days_over_90";
}

function kindOf(balance: number, status: Receivable["stay"]["status"]): ReceivableKind {
  if (balance < 0) return "credit_balance";
  return status === "no_show" ? "no_show" : status === "cancelled" ? "cancellation" : "due_after_departure";
}

/**
 * Every open balance of the tenant: folios whose balance is not zero, with no stay still to come
 * or in house billing to them (a group's master folio waits for its last room), each aged on its
 * property's business date. Computed when asked from the folios themselves, so a payment or a
 * refund takes a balance off at once; only folios with a balance are ever returned, so the set is
 * small (what is owed, not the hotel's history).
 */
export async function openBalances(db: Executor, { tenant }: Pick<Ctx, "tenant">, filters: ReceivableFilters, now = new Date()): Promise<Receivable[]> {
  const granted = tenant.propertyIds;
  if (granted && !granted.length) return [];
  const captured = sql.join(capturedStatuses.map((s) => sql`${s}`), sql`, `);
  const result = await db.execute(sql`
    with balances as (
      select f.id, f.livemode, f.property_id, f.reservation_id, f.currency,
        coalesce((select sum(c.amount) from folio_charges c where c.folio_id = f.id), 0)
        - coalesce((select sum(p.amount) from payments p where p.folio_id = f.id and p.status in (${captured})), 0)
        + coalesce((select sum(r.amount) from refunds r where r.folio_id = f.id), 0) as balance
      from folios f
      where f.account_id = ${tenant.accountId} and f.livemode = ${tenant.livemode}
        ${granted ? sql`and f.property_id in (${sql.join(granted.map((g) => sql`${g}`), sql`, `)})` : sql``}
        ${filters.property_id ? sql`and f.property_id = ${filters.property_id}` : sql``}
        and not exists (select 1 from reservations running where running.folio_id = f.id and running.status in ('confirmed', 'checked_in'))
    )
    select b.id as folio_id, b.livemode, b.property_id, b.currency, b.balance,
      r.id as reservation_id, r.status, r.check_in, r.check_out, r.cancelled_at,
      g.id as guest_id, g.first_name, g.last_name,
      grp.id as group_id, grp.name as group_name,
      i.id as invoice_id, coalesce(latest.snapshot, i.snapshot)->>'issue_date' as issue_date,
      p.timezone, p.business_date
    from balances b
    join reservations r on r.id = b.reservation_id
    join guests g on g.id = r.guest_id
    join properties p on p.id = b.property_id
    left join groups grp on grp.master_folio_id = b.id
    -- The invoice the folio closed into; a balance restated by a later supplementary invoice (a late
    -- charge) is due from that one's issue date.
    left join invoices i on i.folio_id = b.id and i.supplements_invoice_id is null
    left join lateral (
      select s.snapshot from invoices s where s.folio_id = b.id and s.supplements_invoice_id is not null order by s.number desc limit 1
    ) latest on true
    where b.balance <> 0
      ${filters.guest_id ? sql`and g.id = ${filters.guest_id}` : sql``}
      ${filters.group_id ? sql`and grp.id = ${filters.group_id}` : sql``}
  `);
  return rowsOf<Row>(result)
    .map((row): Receivable => {
      const balance = Number(row.balance);
      const status = row.status;
      const checkIn = isoDate(row.check_in);
      const property = { timezone: row.timezone, businessDate: row.business_date ? isoDate(row.business_date) : null };
      // The day the stay ended: its departure, a no-show's arrival night, the day a cancellation was made.
      const ended = status === "no_show" ? checkIn : status === "cancelled" && row.cancelled_at ? todayIn(row.timezone, new Date(row.cancelled_at)) : isoDate(row.check_out);
      const dueDate = row.issue_date ?? ended;
      const ageDays = Math.max(0, daysBetween(dueDate, businessToday(property, now)));
      return {
        id: row.folio_id,
        createdAt: dateKey(dueDate),
        livemode: row.livemode,
        propertyId: row.property_id,
        currency: row.currency,
        balance,
        kind: kindOf(balance, status),
        guest: { id: row.guest_id, name: `${row.first_name} ${row.last_name}`.trim() },
        group: row.group_id ? { id: row.group_id, name: row.group_name ?? "" } : null,
        stay: { reservationId: row.reservation_id, status, checkIn, checkOut: isoDate(row.check_out) },
        invoiceId: row.invoice_id,
        dueDate,
        ageDays,
        bucket: bucketOf(ageDays),
      };
    })
    .filter((r) => (!filters.kind || r.kind === filters.kind) && (!filters.bucket || r.bucket === filters.bucket))
    .sort(byDue);
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Oldest due first; on one day by the guest's name, then by folio: the same order every time. */
const byDue = (a: Receivable, b: Receivable) => compare(a.dueDate, b.dueDate) || compare(a.guest.name, b.guest.name) || compare(a.id, b.id);

/**
 * The rows after (`next`) or before (`prev`, nearest first) the cursor's row. The list is whole in
 * memory, so the cursor's folio is found in it; one settled since the page was read is placed
 * by its due date and folio instead.
 */
function beyond(rows: Receivable[], cursor: CursorPosition): Receivable[] {
  const next = cursor.direction === "next";
  const index = rows.findIndex((r) => r.id === cursor.id);
  if (index >= 0) return next ? rows.slice(index + 1) : rows.slice(0, index).reverse();
  const at = cursor.createdAt.toISOString().slice(0, 10);
  const after = (r: Receivable) => (compare(r.dueDate, at) || compare(r.id, cursor.id)) > 0;
  return next ? rows.filter(after) : rows.filter((r) => !after(r)).reverse();
}

/** Per currency, per bucket: what guests owe (due) and what the hotel owes them (credit). */
export function receivableTotals(rows: Receivable[]) {
  const currencies = [...new Set(rows.map((r) => r.currency))].sort();
  return currencies.map((currency) => {
    const mine = rows.filter((r) => r.currency === currency);
    const m = (amount: number) => ({ amount, currency });
    const sums = (list: Receivable[]) => ({
      due: m(list.filter((r) => r.balance > 0).reduce((s, r) => s + r.balance, 0)),
      credit: m(list.filter((r) => r.balance < 0).reduce((s, r) => s + r.balance, 0)),
      count: list.length,
    });
    return { currency, buckets: ageingBuckets.map((bucket) => ({ bucket, ...sums(mine.filter((r) => r.bucket === bucket)) })), ...sums(mine) };
  });
}

/**
 * Open balances oldest due first (then by guest and folio), one page of them, with the totals of
 * every row the filters select.
 */
export async function listReceivables({ db, tenant, filters, page, now }: Ctx & { filters: ReceivableFilters; page: PageRequest; now?: Date }): Promise<{ page: Page<Receivable>; totals: ReturnType<typeof receivableTotals> }> {
  const rows = await openBalances(db, { tenant }, filters, now);
  const ordered = page.cursor ? beyond(rows, page.cursor) : rows;
  return { page: toPage(ordered.slice(0, page.limit + 1), page), totals: receivableTotals(rows) };
}
