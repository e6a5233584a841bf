"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, Card, PageHeader } from "@/components/ui";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { Code, CopyButton, EndpointStatus, HeaderList, HttpStatus, OutcomeBadge, relative, When } from "./common";

type Detail = inferRouterOutputs<AppRouter>["developers"]["deliveries"]["get"];
type Attempt = Detail["attempts"][number];

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The attempt's request as a curl command (the signature's `t` is that attempt's: a receiver checking freshness will refuse it later). */
export function curlOf(attempt: Attempt): string {
  const headers = Object.entries(attempt.request.headers ?? { "content-type": "application/json" }).map(
    ([k, v]) => `  -H ${shellQuote(`${k}: ${v}`)} \\`,
  );
  return [`curl -X POST ${shellQuote(attempt.request.url ?? "")} \\`, ...headers, `  --data-raw ${shellQuote(attempt.request.body)}`].join("\n");
}

const attemptLabel = (a: Attempt) => (a.outcome === "succeeded" ? "succeeded" : a.outcome === "retry" ? "failed, retried" : "failed for good");

function AttemptCard({ attempt }: { attempt: Attempt }) {
  return (
    <li className="rounded-lg border border-stone-200 bg-white shadow-sm" data-testid="attempt">
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-stone-100 px-4 py-2.5">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-semibold text-stone-800">Attempt {attempt.number}</span>
          <HttpStatus status={attempt.response.status} error={attempt.error} />
          <span className="text-stone-500">{attemptLabel(attempt)}</span>
          <span className="text-xs text-stone-500">
            <time dateTime={attempt.started_at}>
              <When at={attempt.started_at} />
            </time>{" "}
            · {attempt.latency_ms} ms
          </span>
        </div>
        <CopyButton text={curlOf(attempt)} label="Copy as curl" />
      </header>
      <div className="grid gap-4 px-4 py-3 lg:grid-cols-2">
        <div className="min-w-0 space-y-2">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-stone-500">Request</h3>
          <p className="break-all font-mono text-xs text-stone-800">POST {attempt.request.url}</p>
          <HeaderList headers={attempt.request.headers} label={`Request headers of attempt ${attempt.number}`} />
          <Code text={attempt.request.body} label={`Request body of attempt ${attempt.number}`} />
        </div>
        <div className="min-w-0 space-y-2">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-stone-500">Response</h3>
          {attempt.error ? (
            <p role="note" className="rounded-md bg-red-50 px-2 py-1.5 font-mono text-xs text-red-800" data-testid="attempt-error">
              {attempt.error}
            </p>
          ) : null}
          {attempt.response.status !== null ? <p className="font-mono text-xs text-stone-800">HTTP {attempt.response.status}</p> : null}
          <HeaderList headers={attempt.response.headers} label={`Response headers of attempt ${attempt.number}`} />
          <Code text={attempt.response.body} label={`Response body of attempt ${attempt.number}`} />
          <p className="text-[11px] text-stone-500">The first 8 KiB of the answer, as stored.</p>
        </div>
      </div>
    </li>
  );
}

/** /developers/deliveries/{id}: a delivery's attempt timeline, what was sent and answered each time, and Replay. */
export function DeliveryDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const detail = useQuery({
    ...trpc.developers.deliveries.get.queryOptions({ id }),
    // A delivery still in flight is watched until it settles.
    refetchInterval: (q) => (q.state.data && (q.state.data.outcome === "pending" || q.state.data.outcome === "held") ? 3_000 : false),
  });
  const replay = useMutation(
    trpc.developers.deliveries.replay.mutationOptions({
      onSuccess: async (r) => {
        toast.success("Replay queued");
        await queryClient.invalidateQueries(trpc.developers.deliveries.list.queryFilter());
        router.push(`/developers/deliveries/${r.delivery_id}`);
      },
      onError: (e) => toast.error(callError(e).message),
    }),
  );
  const back = (
    <Link href="/developers/deliveries" className="text-sm text-stone-500 hover:text-stone-800">
      ← All deliveries
    </Link>
  );
  if (detail.error) {
    const f = callError(detail.error);
    return (
      <>
        {back}
        <div className="mt-4">
          <ErrorState
            message={f.code === "resource_missing" ? "There is no such delivery in this data set." : f.message}
            onRetry={() => detail.refetch()}
          />
        </div>
      </>
    );
  }
  const d = detail.data;
  if (!d) return <LoadingState rows={6} />;
  const attempts = [...d.attempts].reverse();
  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader
          title={`Delivery of ${d.event_type}`}
          description={<span className="break-all font-mono text-xs">{d.id}</span>}
          actions={
            d.source === "test" ? null : (
              <Button onClick={() => replay.mutate({ id: d.id })} disabled={replay.isPending}>
                {replay.isPending ? "Queuing…" : "Replay"}
              </Button>
            )
          }
        />
      </div>
      <Card className="mb-6">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[9rem_minmax(0,1fr)]">
          <dt className="text-stone-500">Outcome</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <OutcomeBadge outcome={d.outcome} />
            {d.outcome === "held" ? <span className="text-xs text-stone-600">Waiting for the endpoint to be re-enabled.</span> : null}
          </dd>
          {d.next_attempt_at ? (
            <>
              <dt className="text-stone-500">Next attempt</dt>
              <dd data-testid="next-attempt">
                {d.outcome === "held" ? (
                  "when the endpoint is re-enabled"
                ) : (
                  <>
                    <When at={d.next_attempt_at} /> ({relative(d.next_attempt_at)})
                  </>
                )}
              </dd>
            </>
          ) : null}
          <dt className="text-stone-500">Endpoint</dt>
          <dd className="min-w-0">
            {d.endpoint ? (
              <span className="flex flex-wrap items-center gap-2">
                <Link href={`/developers/webhooks/${d.endpoint.id}`} className="break-all text-teal-800 hover:underline">
                  {d.endpoint.url}
                </Link>
                {d.endpoint.status === "disabled" ? <EndpointStatus status="disabled" reason={d.endpoint.disabled_reason} /> : null}
              </span>
            ) : (
              "—"
            )}
          </dd>
          <dt className="text-stone-500">Event</dt>
          <dd className="min-w-0 break-all font-mono text-xs">
            {d.event_type === "ping" ? (
              d.event_id
            ) : (
              <Link href={`/developers/events/${d.event_id}`} className="text-teal-800 hover:underline">
                {d.event_id}
              </Link>
            )}
          </dd>
          <dt className="text-stone-500">Source</dt>
          <dd>{{ event: "The event happened", replay: "Replay", backfill: "Backfill", test: "Test event from the dashboard" }[d.source]}</dd>
          <dt className="text-stone-500">Created</dt>
          <dd>
            <When at={d.created_at} />
          </dd>
        </dl>
      </Card>
      <h2 className="mb-3 text-sm font-semibold text-stone-800">Attempts, newest first</h2>
      {attempts.length ? (
        <ol className="space-y-4" aria-label="Attempts">
          {attempts.map((a) => (
            <AttemptCard key={a.id} attempt={a} />
          ))}
        </ol>
      ) : (
        <p className="rounded-lg border border-dashed border-stone-300 bg-white px-4 py-6 text-center text-sm text-stone-500">
          {d.outcome === "held"
            ? "No attempt yet: the endpoint is disabled, so this delivery waits."
            : "No attempt yet: it is due now and goes out within seconds."}
        </p>
      )}
    </>
  );
}
