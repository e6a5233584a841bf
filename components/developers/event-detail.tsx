"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, Card, PageHeader } from "@/components/ui";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { Code, CopyButton, OutcomeBadge, When } from "./common";
import { plural } from "@/lib/words";

/** /developers/events/{id}: the event's payload, the endpoints it went to with their outcome, and Replay. */
export function EventDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const event = useQuery({ ...trpc.developers.events.get.queryOptions({ id }), refetchInterval: 5_000 });
  const replay = useMutation(
    trpc.developers.events.replay.mutationOptions({
      onSuccess: async (r) => {
        toast.success(r.length === 1 ? "Replay queued" : `Replay queued to ${r.length} endpoints`);
        await queryClient.invalidateQueries(trpc.developers.events.get.queryFilter({ id }));
      },
      onError: (e) => toast.error(callError(e).message),
    }),
  );
  const back = (
    <Link href="/developers/events" className="text-sm text-stone-500 hover:text-stone-800">
      ← All events
    </Link>
  );
  if (event.error && !event.data) {
    const f = callError(event.error);
    return (
      <>
        {back}
        <div className="mt-4">
          <ErrorState
            message={f.code === "resource_missing" ? "There is no such event in this data set." : f.message}
            onRetry={() => event.refetch()}
          />
        </div>
      </>
    );
  }
  const e = event.data;
  if (!e) return <LoadingState rows={6} />;
  const body = JSON.stringify({ ...e, deliveries: undefined });
  const endpoints = [...new Map(e.deliveries.map((d) => [d.endpoint_id, d])).values()];
  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader
          title={e.type}
          description={
            <span className="break-all font-mono text-xs">
              {e.id} · <When at={e.created_at} />
            </span>
          }
          actions={
            endpoints.length ? (
              <Button onClick={() => replay.mutate({ event_id: e.id })} disabled={replay.isPending}>
                {replay.isPending ? "Queuing…" : endpoints.length === 1 ? "Replay" : `Replay to all ${endpoints.length} endpoints`}
              </Button>
            ) : null
          }
        />
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card title="Payload" actions={<CopyButton text={body} label="Copy JSON" />}>
          <Code text={body} label="Event payload" maxHeight="max-h-[32rem]" />
        </Card>
        <Card title="Deliveries">
          {e.deliveries.length ? (
            <ul className="divide-y divide-stone-100" aria-label="Deliveries of this event">
              {e.deliveries.map((d) => (
                <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
                  <div className="min-w-0">
                    <Link href={`/developers/deliveries/${d.id}`} className="block break-all text-sm text-teal-800 hover:underline">
                      {d.endpoint_url}
                    </Link>
                    <span className="text-xs text-stone-500">
                      {d.source} · {plural(d.attempt_count, "attempt")} · <When at={d.created_at} />
                    </span>
                  </div>
                  <div className="flex items-center gap-2">
                    <OutcomeBadge outcome={d.outcome} />
                    <Button
                      variant="secondary"
                      className="px-2 py-1 text-xs"
                      onClick={() => replay.mutate({ event_id: e.id, endpoint_ids: [d.endpoint_id] })}
                      disabled={replay.isPending}
                      aria-label={`Replay to ${d.endpoint_url}`}
                    >
                      Replay
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <EmptyState title="Not delivered anywhere">No endpoint of this data set selected this event type when it happened.</EmptyState>
          )}
        </Card>
      </div>
    </>
  );
}
