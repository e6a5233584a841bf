"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, PageHeader } from "@/components/ui";
import { Pager } from "@/components/ui/data-table";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { When } from "./common";

const show = (v: unknown) => (v === null || v === undefined ? "—" : typeof v === "object" ? JSON.stringify(v) : String(v));

/** /developers/outbox: the mail the platform sent or holds (circuit-breaker notices), each with its body. */
export function OutboxView() {
  const trpc = useTRPC();
  const [cursor, setCursor] = useState<string | undefined>();
  const list = useQuery({
    ...trpc.developers.outbox.list.queryOptions({ cursor, limit: 20 }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  return (
    <>
      <PageHeader
        title="Mail outbox"
        description="Notices Innkeep sends to your developer contact (the circuit breaker's, for now). Without SMTP configured, or without a contact, they are held here."
      />
      {list.error && !list.data ? (
        <ErrorState message={callError(list.error).message} onRetry={() => list.refetch()} />
      ) : !list.data ? (
        <LoadingState />
      ) : !list.data.data.length ? (
        <EmptyState title="No mail yet">When the circuit breaker disables an endpoint, the notice to your developer contact appears here.</EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Mail">
          {list.data.data.map((m) => (
            <li key={m.id} className="rounded-lg border border-stone-200 bg-white shadow-sm" data-testid="mail">
              <details>
                <summary className="flex cursor-pointer list-none flex-wrap items-center justify-between gap-2 px-4 py-3 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600">
                  <span className="min-w-0">
                    <span className="block break-words text-sm font-medium text-stone-900">{m.subject}</span>
                    <span className="text-xs text-stone-500">
                      to {m.to ?? "no developer contact set"} · <When at={m.created_at} />
                    </span>
                  </span>
                  {m.sent_at ? (
                    <Badge tone="teal">
                      Sent <When at={m.sent_at} />
                    </Badge>
                  ) : m.error ? (
                    <Badge tone="red">Not sent</Badge>
                  ) : (
                    <Badge tone="amber">Held</Badge>
                  )}
                </summary>
                <div className="space-y-2 border-t border-stone-100 px-4 py-3">
                  {m.error ? <p className="rounded bg-red-50 px-2 py-1 font-mono text-xs text-red-800">{m.error}</p> : null}
                  {Object.keys(m.extra).length ? (
                    <dl className="grid grid-cols-1 gap-x-3 text-xs sm:grid-cols-[10rem_minmax(0,1fr)]">
                      {Object.entries(m.extra).map(([k, v]) => (
                        <div key={k} className="contents">
                          <dt className="font-mono text-stone-500">{k}</dt>
                          <dd className="break-all text-stone-800">{show(v)}</dd>
                        </div>
                      ))}
                    </dl>
                  ) : null}
                  <pre className="whitespace-pre-wrap break-words rounded-md bg-stone-50 p-3 font-mono text-xs text-stone-800">{m.text}</pre>
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
      <Pager page={list.data} onCursor={setCursor} />
    </>
  );
}
