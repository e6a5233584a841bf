"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { usePropertyFormat } from "@/components/ui/property-format";
import { ErrorState, LoadingState } from "@/components/ui/states";

/**
 * Attempts per hour over the last 24 hours, stacked by outcome. `version` changes whenever the
 * endpoint's page sees another attempt (its figures, refreshed every few seconds), and the chart
 * then follows at once instead of on its own slower clock.
 */
export function AttemptsChart({ endpointId, version }: { endpointId: string; version?: string }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const hours = useQuery({ ...trpc.developers.webhooks.attemptsPerHour.queryOptions({ id: endpointId, hours: 24 }), refetchInterval: 15_000 });
  const { refetch } = hours;
  useEffect(() => {
    if (version !== undefined) void refetch();
  }, [version, refetch]);
  if (hours.error) return <ErrorState message={callError(hours.error).message} onRetry={() => hours.refetch()} />;
  if (!hours.data) return <LoadingState rows={3} />;
  const totals = hours.data.reduce((t, b) => ({ succeeded: t.succeeded + b.succeeded, retry: t.retry + b.retry, failed: t.failed + b.failed }), {
    succeeded: 0,
    retry: 0,
    failed: 0,
  });
  const data = hours.data.map((b) => ({ ...b, label: fmt.clock(b.hour) }));
  return (
    <figure>
      <figcaption className="mb-2 text-xs text-stone-500" data-testid="chart-summary">
        Last 24 hours: {totals.succeeded} succeeded, {totals.retry} failed and retried, {totals.failed} failed for good.
      </figcaption>
      {totals.succeeded + totals.retry + totals.failed === 0 ? (
        <p className="rounded-md border border-dashed border-stone-300 px-4 py-8 text-center text-sm text-stone-500">
          No attempts in the last 24 hours.
        </p>
      ) : (
        <div className="h-56 w-full" aria-hidden>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} margin={{ top: 4, right: 4, left: -20, bottom: 0 }} accessibilityLayer={false}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />
              <XAxis dataKey="label" tick={{ fontSize: 10 }} interval="preserveStartEnd" minTickGap={16} />
              <YAxis allowDecimals={false} tick={{ fontSize: 10 }} />
              <Tooltip />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              <Bar dataKey="succeeded" name="Succeeded" stackId="a" fill="#0f766e" />
              <Bar dataKey="retry" name="Failed, retried" stackId="a" fill="#f59e0b" />
              <Bar dataKey="failed" name="Failed for good" stackId="a" fill="#b91c1c" />
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}
