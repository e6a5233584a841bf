"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { AuditTrail } from "@/components/audit/audit-trail";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, Card, PageHeader } from "@/components/ui";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { AttemptsChart } from "./attempts-chart";
import { BackfillCard } from "./backfill-card";
import { EndpointStatus, When } from "./common";
import { DeliveryLog } from "./delivery-log";
import { EndpointForm } from "./endpoint-form";
import { SecretCard } from "./secret-card";
import { inflect } from "@/lib/words";

/** /developers/webhooks/{id}: one endpoint: status and recovery, secret, test event, health chart, backfill, delivery log, history. */
export function EndpointDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const endpoint = useQuery({ ...trpc.developers.webhooks.get.queryOptions({ id }), refetchInterval: 4_000 });
  const refresh = async () => {
    await queryClient.invalidateQueries(trpc.developers.webhooks.pathFilter());
    await queryClient.invalidateQueries(trpc.developers.deliveries.pathFilter());
    await queryClient.invalidateQueries(trpc.audit.list.queryFilter());
  };
  const onError = (e: unknown) => toast.error(callError(e).message);
  const update = useMutation(
    trpc.developers.webhooks.update.mutationOptions({
      onSuccess: async () => {
        setEditing(false);
        toast.success("Endpoint saved");
        await refresh();
      },
    }),
  );
  const enable = useMutation(
    trpc.developers.webhooks.enable.mutationOptions({
      onSuccess: async () => {
        toast.success("Endpoint re-enabled; waiting deliveries are going out.");
        await refresh();
      },
      onError,
    }),
  );
  const disable = useMutation(trpc.developers.webhooks.disable.mutationOptions({ onSuccess: refresh, onError }));
  const sendTest = useMutation(
    trpc.developers.webhooks.sendTest.mutationOptions({
      onSuccess: async (r) => {
        toast.success(
          r.endpoint_status === "disabled"
            ? "Test event queued; it waits until the endpoint is re-enabled."
            : "Test event sent. It appears in the delivery log below.",
        );
        await refresh();
      },
      onError,
    }),
  );
  const remove = useMutation(
    trpc.developers.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        toast.success("Endpoint deleted");
        await queryClient.invalidateQueries(trpc.developers.webhooks.pathFilter());
        router.push("/developers/webhooks");
      },
    }),
  );

  const back = (
    <Link href="/developers/webhooks" className="text-sm text-stone-500 hover:text-stone-800">
      ← All endpoints
    </Link>
  );
  if (endpoint.error && !endpoint.data) {
    const f = callError(endpoint.error);
    return (
      <>
        {back}
        <div className="mt-4">
          <ErrorState
            message={
              f.code === "resource_missing"
                ? "There is no such endpoint in this data set (switch live/sandbox in the header if you expected one)."
                : f.message
            }
            onRetry={() => endpoint.refetch()}
          />
        </div>
      </>
    );
  }
  const e = endpoint.data;
  if (!e) return <LoadingState rows={6} />;
  const disabled = e.status === "disabled";
  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader
          title="Webhook endpoint"
          description={<span className="break-all font-mono text-xs text-stone-700">{e.url}</span>}
          actions={
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onClick={() => sendTest.mutate({ id })} disabled={sendTest.isPending}>
                {sendTest.isPending ? "Sending…" : "Send test event"}
              </Button>
              <Button variant="secondary" onClick={() => setEditing(true)}>
                Edit
              </Button>
              {disabled ? null : (
                <Button variant="ghost" onClick={() => disable.mutate({ id })} disabled={disable.isPending}>
                  Disable
                </Button>
              )}
              <ConfirmDialog
                open={deleting}
                onOpenChange={(open) => {
                  remove.reset();
                  setDeleting(open);
                }}
                trigger={<Button variant="danger">Delete</Button>}
                title="Delete this endpoint?"
                description={
                  <>
                    Nothing more is sent to <span className="break-all font-mono">{e.url}</span>, and its delivery log and {e.stats.waiting} waiting
                    deliveries are deleted with it. This cannot be undone.
                  </>
                }
                confirmLabel="Delete endpoint"
                danger
                pending={remove.isPending}
                error={remove.error ? callError(remove.error).message : null}
                onConfirm={() => remove.mutate({ id })}
              />
            </div>
          }
        />
      </div>

      {disabled ? (
        <div
          role="status"
          className="mb-6 flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 sm:flex-row sm:items-center"
          data-testid="disabled-banner"
        >
          <div className="flex-1">
            <p className="font-semibold">
              {e.disabled_reason === "circuit_breaker" ? "The circuit breaker disabled this endpoint" : "This endpoint is disabled"}
              {e.disabled_at ? (
                <>
                  {" "}
                  on <When at={e.disabled_at} />
                </>
              ) : (
                ""
              )}
              .
            </p>
            <p className="mt-1">
              {e.disabled_reason === "circuit_breaker" ? "Nearly every recent attempt failed with a server error or no answer. " : ""}
              Nothing is lost: <strong data-testid="held-count">{e.stats.waiting}</strong> {inflect(e.stats.waiting, { one: "delivery is held and goes", other: "deliveries are held and go" })} out
              when you re-enable it.
            </p>
          </div>
          <Button onClick={() => enable.mutate({ id })} disabled={enable.isPending}>
            {enable.isPending ? "Re-enabling…" : "Re-enable"}
          </Button>
        </div>
      ) : e.stats.waiting ? (
        <p role="status" className="mb-6 rounded-lg border border-sky-200 bg-sky-50 px-4 py-2 text-sm text-sky-900" data-testid="waiting-banner">
          <strong>{e.stats.waiting}</strong> {inflect(e.stats.waiting, { one: "delivery", other: "deliveries" })} waiting to go out or to be retried.
        </p>
      ) : null}

      <div className="mb-6 grid gap-6 lg:grid-cols-2">
        <Card title="Details">
          <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
            <dt className="text-stone-500">Status</dt>
            <dd>
              <EndpointStatus status={e.status} reason={e.disabled_reason} since={e.disabled_at} />
            </dd>
            <dt className="text-stone-500">Events</dt>
            <dd className="flex flex-wrap gap-1 font-mono text-xs">
              {e.enabled_events.includes("*")
                ? "All events"
                : e.enabled_events.map((t) => (
                    <span key={t} className="rounded bg-stone-100 px-1.5 py-0.5">
                      {t}
                    </span>
                  ))}
            </dd>
            <dt className="text-stone-500">Description</dt>
            <dd>{e.description ?? "—"}</dd>
            <dt className="text-stone-500">API version</dt>
            <dd className="font-mono text-xs">{e.api_version}</dd>
            <dt className="text-stone-500">Last 24 hours</dt>
            <dd>
              {e.stats.attempts_24h} attempts · {e.stats.success_rate_24h === null ? "—" : `${Math.round(e.stats.success_rate_24h * 1000) / 10} %`}{" "}
              succeeded · p95 {e.stats.p95_latency_ms_24h === null ? "—" : `${e.stats.p95_latency_ms_24h} ms`}
            </dd>
            <dt className="text-stone-500">ID</dt>
            <dd className="break-all font-mono text-xs">{e.id}</dd>
          </dl>
        </Card>
        <SecretCard endpointId={id} />
      </div>

      <div className="mb-6 grid gap-6 lg:grid-cols-2">
        <Card title="Attempts per hour">
          <AttemptsChart endpointId={id} version={`${e.stats.attempts_24h}:${e.stats.waiting}`} />
        </Card>
        <BackfillCard endpointId={id} enabledEvents={e.enabled_events} held={disabled ? (e.disabled_reason === "circuit_breaker" ? "breaker" : "disabled") : null} />
      </div>

      <Card title="Delivery log" className="mb-6">
        <DeliveryLog endpointId={id} title="Deliveries to this endpoint" />
      </Card>

      <AuditTrail objectType="webhook_endpoint" objectId={id} />

      <Dialog open={editing} onOpenChange={setEditing} title="Edit endpoint" size="lg">
        <EndpointForm
          initial={{ url: e.url, description: e.description ?? "", enabled_events: e.enabled_events }}
          submitLabel="Save"
          onSubmit={(v) => update.mutateAsync({ id, url: v.url, description: v.description || null, enabled_events: v.enabled_events as never })}
        />
      </Dialog>
    </>
  );
}
