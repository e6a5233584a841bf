"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/client";
import { Badge, Button, Card, Input } from "@/components/ui";
import { Form, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { plural } from "@/lib/words";
import { eventGroups, fromLocalInput, localInput, throughLocalInput, When } from "./common";

/** Why the endpoint sends nothing now, if it does not: its circuit breaker tripped, or someone disabled it. */
type Held = "breaker" | "disabled" | null;

/** Live progress of one backfill: queued, sent, failed, polled until every delivery settles. */
function Progress({ endpointId, id, held }: { endpointId: string; id: string; held: Held }) {
  const trpc = useTRPC();
  const p = useQuery({
    ...trpc.developers.webhooks.backfillProgress.queryOptions({ endpoint_id: endpointId, id }),
    refetchInterval: (q) => (q.state.data?.finished ? false : 1_500),
  });
  if (!p.data) return <p className="text-xs text-stone-500">Loading progress…</p>;
  const b = p.data;
  const pct = b.events_total ? Math.round(((b.sent + b.failed) / b.events_total) * 100) : 100;
  return (
    <div className="space-y-1.5 rounded-md border border-stone-200 p-3" data-testid="backfill-progress" aria-live="polite">
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-stone-600">
        <span>
          <When at={b.since} /> → <When at={b.until} />
        </span>
        <Badge tone={b.finished ? "teal" : held ? "amber" : "blue"}>
          {b.finished
            ? "Finished"
            : held === "breaker"
              ? "Held by the circuit breaker"
              : held
                ? "Held: endpoint disabled"
                : b.status === "completed"
                  ? "Delivering"
                  : "Queuing"}
        </Badge>
      </div>
      <div
        className="h-2 w-full overflow-hidden rounded bg-stone-100"
        role="progressbar"
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-label="Backfill progress"
      >
        <div className="h-full bg-teal-600 transition-all" style={{ width: `${pct}%` }} />
      </div>
      <p className="text-xs text-stone-700">
        {plural(b.events_total, "event")} · {b.events_queued} queued · <span data-testid="backfill-sent">{b.sent} sent</span> · {b.failed} failed ·{" "}
        {b.waiting} {held ? "held until the endpoint is re-enabled" : "waiting"}
      </p>
    </div>
  );
}

const backfillForm = z.object({
  since: z.string().min(1, "Choose the start of the window."),
  until: z.string().min(1, "Choose the end of the window."),
  event_types: z.array(z.string()),
});
type BackfillForm = z.input<typeof backfillForm>;

/** Backfill: re-send a window of past events (within 72 hours) to this endpoint, with live progress. */
export function BackfillCard({ endpointId, enabledEvents, held = null }: { endpointId: string; enabledEvents: string[]; held?: Held }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The last hour, through this minute (the defaults are read once, as the form starts).
  const now = new Date();
  const form = useZodForm(backfillForm, { defaultValues: { since: localInput(new Date(now.getTime() - 3_600_000)), until: localInput(now), event_types: [] } });
  const types = form.watch("event_types");
  const recent = useQuery(trpc.developers.webhooks.backfills.queryOptions({ endpoint_id: endpointId }));
  const start = useMutation(
    trpc.developers.webhooks.backfill.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.developers.webhooks.backfills.queryFilter());
      },
      onError: (e) => showServerError<BackfillForm>(form, e),
    }),
  );
  const selectable = enabledEvents.includes("*") ? eventGroups.flatMap((g) => g.types) : enabledEvents;
  const submit = (v: z.output<typeof backfillForm>) =>
    start.mutate({
      endpoint_id: endpointId,
      since: fromLocalInput(v.since)!,
      // Through the chosen minute (the server stops at now): the default "To" is this minute.
      until: throughLocalInput(v.until)!,
      ...(v.event_types.length ? { event_types: v.event_types as never } : {}),
    });
  return (
    <Card title="Backfill">
      <Form form={form} onSubmit={submit} aria-label="Backfill" className="space-y-3">
        <p className="text-xs text-stone-500">
          Sends the events of a window (inside the last 72 hours, at most 10,000) again, in their original order.
        </p>
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField<BackfillForm> name="since" label="From">
            {(control) => <Input {...control} type="datetime-local" required />}
          </FormField>
          <FormField<BackfillForm> name="until" label="To">
            {(control) => <Input {...control} type="datetime-local" required />}
          </FormField>
        </div>
        <details className="text-sm">
          <summary className="cursor-pointer text-xs font-medium text-stone-600">
            Event types ({types.length ? types.length : "all the endpoint selects"})
          </summary>
          <div className="mt-2 grid gap-1 sm:grid-cols-2">
            {selectable.map((t) => (
              <label key={t} className="flex items-center gap-2 font-mono text-xs">
                <input type="checkbox" className="h-3.5 w-3.5 accent-teal-700" value={t} {...form.register("event_types")} />
                {t}
              </label>
            ))}
          </div>
        </details>
        <FormError />
        <div className="flex justify-end">
          <Button type="submit" variant="secondary" disabled={start.isPending}>
            {start.isPending ? "Starting…" : "Start backfill"}
          </Button>
        </div>
      </Form>
      {recent.data?.length ? (
        <div className="mt-4 space-y-2">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-stone-500">Recent backfills</h3>
          {recent.data.map((b) => (
            <Progress key={b.id} endpointId={endpointId} id={b.id} held={held} />
          ))}
        </div>
      ) : null}
    </Card>
  );
}
