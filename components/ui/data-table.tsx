"use client";

import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowData } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { Button, cx } from "./index";
import { EmptyState, ErrorState, LoadingState } from "./states";

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** On narrow screens the row becomes a card; a primary column is its heading. */
    primary?: boolean;
    /** Left out of the narrow card (for columns the heading already says). */
    hideOnMobile?: boolean;
    /** Right-aligned (amounts, counts). */
    numeric?: boolean;
  }
}

export type { ColumnDef } from "@tanstack/react-table";

type Props<T> = {
  /** What the table lists, for screen readers (`<table aria-label>`). */
  label: string;
  columns: ColumnDef<T, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  data: T[] | undefined;
  loading?: boolean;
  error?: string | null;
  onRetry?: () => void;
  empty: { title: string; children?: ReactNode; action?: ReactNode };
  rowKey: (row: T) => string;
  /** Extra attributes per row (a test id, a highlight). */
  rowProps?: (row: T) => { className?: string; "data-testid"?: string };
  fetching?: boolean;
};

/**
 * A list of objects (TanStack Table): a table from 768 px up, a stack of cards below, so
 * nothing scrolls sideways on a phone. States: loading, error with retry, empty.
 */
export function DataTable<T>({ label, columns, data, loading, error, onRetry, empty, rowKey, rowProps, fetching }: Props<T>) {
  // TanStack's table object is rebuilt every render by design; nothing here memoizes it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data: data ?? [], columns, getCoreRowModel: getCoreRowModel(), getRowId: (row) => rowKey(row) });
  if (error && !data) return <ErrorState message={error} onRetry={onRetry} />;
  if (!data && loading !== false) return <LoadingState />;
  if (!data?.length) return <EmptyState {...empty} />;
  const rows = table.getRowModel().rows;
  return (
    <div aria-busy={fetching || undefined}>
      {error ? (
        <div className="mb-3">
          <ErrorState message={error} onRetry={onRetry} />
        </div>
      ) : null}
      <div className="hidden overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm md:block">
        <table aria-label={label} className="w-full text-left text-sm">
          <thead className="border-b border-stone-200 bg-stone-50 text-xs uppercase tracking-wide text-stone-500">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} scope="col" className={cx("px-4 py-2 font-medium", header.column.columnDef.meta?.numeric && "text-right")}>
                    {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-stone-100">
            {rows.map((row) => {
              const extra = rowProps?.(row.original) ?? {};
              return (
                <tr key={row.id} data-testid={extra["data-testid"]} className={cx("hover:bg-stone-50", extra.className)}>
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={cx("px-4 py-2.5 align-top", cell.column.columnDef.meta?.numeric && "text-right tabular-nums")}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ul aria-label={label} className="space-y-2 md:hidden">
        {rows.map((row) => {
          const extra = rowProps?.(row.original) ?? {};
          const cells = row.getVisibleCells();
          const primary = cells.find((c) => c.column.columnDef.meta?.primary) ?? cells[0];
          return (
            <li key={row.id} data-testid={extra["data-testid"]} className={cx("rounded-lg border border-stone-200 bg-white p-3 shadow-sm", extra.className)}>
              <div className="mb-1.5 text-sm font-medium text-stone-900">{flexRender(primary.column.columnDef.cell, primary.getContext())}</div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                {cells
                  .filter((c) => c !== primary && !c.column.columnDef.meta?.hideOnMobile && labelOf(c.column.columnDef))
                  .map((cell) => (
                    <div key={cell.id} className="contents">
                      <dt className="text-stone-500">{labelOf(cell.column.columnDef)}</dt>
                      <dd className="min-w-0 break-words text-stone-800">{flexRender(cell.column.columnDef.cell, cell.getContext())}</dd>
                    </div>
                  ))}
              </dl>
              {/* A column without a visible heading (the row's buttons) goes below, unlabelled: a
                  clerk never reads a column's internal name. */}
              {cells
                .filter((c) => c !== primary && !c.column.columnDef.meta?.hideOnMobile && !labelOf(c.column.columnDef))
                .map((cell) => (
                  <div key={cell.id} className="mt-2 text-sm">
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </div>
                ))}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Newer / Older buttons over a cursor-paged list (`prev_cursor`, `next_cursor` of the envelope). */
export function Pager({ page, onCursor }: { page: { prev_cursor: string | null; next_cursor: string | null } | undefined; onCursor: (cursor: string | undefined) => void }) {
  if (!page || (!page.prev_cursor && !page.next_cursor)) return null;
  return (
    <nav aria-label="Pages" className="mt-3 flex justify-end gap-2">
      <Button variant="secondary" disabled={!page.prev_cursor} onClick={() => onCursor(page.prev_cursor ?? undefined)}>
        ← Newer
      </Button>
      <Button variant="secondary" disabled={!page.next_cursor} onClick={() => onCursor(page.next_cursor ?? undefined)}>
        Older →
      </Button>
    </nav>
  );
}

/** A column's visible heading, or "" for one with none (a function heading is for screen readers only). */
function labelOf<T>(def: ColumnDef<T, unknown>): string {
  return typeof def.header === "string" ? def.header : "";
}
