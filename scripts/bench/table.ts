// The results as Markdown: one table, then the notes that say what the numbers mean.
import type { BenchRow } from "./types";

const int = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const one = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1, minimumFractionDigits: 1 });

/** A whole number as the tables write it: rounded, with thousands separators. */
export const integer = (n: number) => int.format(n);

const rate = (n: number) => (n >= 100 ? int.format(n) : one.format(n));
const ms = (n: number) => (Number.isFinite(n) ? (n >= 10 ? int.format(n) : one.format(n)) : "—");

function cells(row: BenchRow): [string, string, string, string] {
  if (row.failure) return [`failed: ${row.failure}`, "—", "—", "—"];
  if (row.cells) return [row.cells.rps ?? "—", row.cells.p50 ?? "—", row.cells.p99 ?? "—", row.cells.ratio ?? ""];
  const m = row.measurement!;
  const suspect = m.non2xx || m.errors ? ` ⚠` : "";
  return [`${rate(m.rps)}${suspect}`, ms(m.p50), ms(m.p99), row.ratio === undefined ? "" : `${row.ratio.toFixed(2)}`];
}

const escape = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderTable(rows: BenchRow[]): string {
  const lines = ["| route | server | req/s | p50 ms | p99 ms | Innkeep/bare |", "|---|---|--:|--:|--:|--:|"];
  for (const row of rows) {
    const [r, p50, p99, ratio] = cells(row);
    lines.push(`| ${escape(row.route)} | ${escape(row.server)} | ${escape(r)} | ${p50} | ${p99} | ${ratio} |`);
  }
  return lines.join("\n");
}

/** Rows whose load met errors or non-2xx answers, said plainly under the table. */
export function anomalies(rows: BenchRow[]): string[] {
  return rows
    .filter((r) => r.measurement && (r.measurement.non2xx || r.measurement.errors))
    .map((r) => {
      const m = r.measurement!;
      const codes = Object.entries(m.statuses).map(([code, n]) => `${n}× ${code}`).join(", ");
      return `⚠ ${r.route} (${r.server}): ${m.non2xx} non-2xx answers and ${m.errors} errors/timeouts of ${m.requests} requests (${codes}).`;
    });
}
