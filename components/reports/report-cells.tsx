import type { ReactNode } from "react";

// What every report shows alike: a cell with its raw value beside what it shows, and the totals' tiles.

/** A cell that carries its raw value (as the CSV has it) beside what it shows. */
export const value = (column: string, raw: unknown, shown: ReactNode) => (
  <span data-col={column} data-value={raw === null || raw === undefined ? "" : String(raw)}>
    {shown}
  </span>
);

/** The report's totals as tiles: a label and what it shows. */
export function Totals({ items }: { items: [string, string][] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {items.map(([label, shown]) => (
        <div key={label} className="rounded-lg border border-stone-200 bg-white px-4 py-3 shadow-sm">
          <dt className="text-xs text-stone-500">{label}</dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums text-stone-900">{shown}</dd>
        </div>
      ))}
    </dl>
  );
}
