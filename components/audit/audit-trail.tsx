"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Card } from "@/components/ui";
import { Pager } from "@/components/ui/data-table";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
const show = (value: unknown) => (value === undefined || value === null ? "—" : typeof value === "object" ? JSON.stringify(value) : String(value));
const verb = (action: string) => action.slice(action.indexOf(".") + 1).replace(/_/g, " ");

/** Who changed this object, when, and what each change did (the fields that differ, before → after). */
export function AuditTrail({ objectType, objectId, title = "History" }: { objectType: string; objectId: string; title?: string }) {
  const trpc = useTRPC();
  const [cursor, setCursor] = useState<string | undefined>();
  const trail = useQuery({ ...trpc.audit.list.queryOptions({ object_type: objectType, object_id: objectId, cursor, limit: 10 }), placeholderData: keepPreviousData });
  return (
    <Card title={title}>
      {trail.error && !trail.data ? (
        <ErrorState message={callError(trail.error).message} onRetry={() => trail.refetch()} />
      ) : !trail.data ? (
        <LoadingState rows={2} />
      ) : trail.data.data.length === 0 ? (
        <EmptyState title="No changes recorded yet">Changes made in the dashboard appear here with who made them.</EmptyState>
      ) : (
        <ol className="space-y-3" aria-label={`${title} of ${objectId}`}>
          {trail.data.data.map((entry) => {
            const before = (entry.before ?? {}) as Record<string, unknown>;
            const after = (entry.after ?? {}) as Record<string, unknown>;
            return (
              <li key={entry.id} className="border-l-2 border-stone-200 pl-3 text-sm" data-testid="audit-entry">
                <p className="text-stone-800">
                  <span className="font-medium capitalize">{verb(entry.action)}</span> by {entry.actor.email}
                </p>
                <p className="text-xs text-stone-500">
                  <time dateTime={entry.created_at}>{when(entry.created_at)}</time>
                </p>
                {entry.before && entry.changed.length ? (
                  <ul className="mt-1 space-y-0.5 text-xs text-stone-600">
                    {entry.changed.map((field) => (
                      <li key={field} className="break-words">
                        <span className="font-mono text-stone-700">{field}</span>: {show(before[field])} → {show(after[field])}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      <Pager page={trail.data} onCursor={setCursor} />
    </Card>
  );
}
