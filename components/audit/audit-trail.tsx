"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Card } from "@/components/ui";
import { Pager } from "@/components/ui/data-table";
import { MomentText } from "@/components/ui/property-format";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";

/** Who changed this object, when, and what each change did, in sentences (server/audit/present.ts writes them). */
export function AuditTrail({ objectType, objectId, title = "History" }: { objectType: string; objectId: string; title?: string }) {
  const trpc = useTRPC();
  const [cursor, setCursor] = useState<string | undefined>();
  const trail = useQuery({
    ...trpc.audit.list.queryOptions({ object_type: objectType, object_id: objectId, cursor, limit: 10 }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card title={title}>
      {trail.error && !trail.data ? (
        <ErrorState message={callError(trail.error).message} onRetry={() => trail.refetch()} />
      ) : !trail.data ? (
        <LoadingState rows={2} />
      ) : trail.data.data.length === 0 ? (
        <EmptyState title="No changes recorded yet">Changes made in the dashboard appear here with who made them.</EmptyState>
      ) : (
        <ol className="space-y-3" aria-label={title}>
          {trail.data.data.map((entry) => (
            <li key={entry.id} className="border-l-2 border-stone-200 pl-3 text-sm" data-testid="audit-entry">
              <p className="text-stone-800">
                <span className="font-medium">{entry.title}</span> by {entry.actor.name}
              </p>
              <p className="text-xs text-stone-500">
                <MomentText at={entry.created_at} />
              </p>
              {entry.sentences.length ? (
                <ul className="mt-1 space-y-0.5 text-xs text-stone-600">
                  {entry.sentences.map((line, i) => (
                    <li key={i} className="break-words">
                      {line}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <Pager page={trail.data} onCursor={setCursor} />
    </Card>
  );
}
