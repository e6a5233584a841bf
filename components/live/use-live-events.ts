"use client";

import { useEffect, useId } from "react";
import { useQueryClient, type QueryFilters } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useTRPC } from "@/components/trpc/client";
import type { LiveEvent } from "@/server/events/live";

export type LiveEventType = Parameters<ReturnType<typeof useTRPC>["live"]["events"]["subscriptionOptions"]>[0] extends infer I
  ? I extends { types: (infer T)[] }
    ? T
    : never
  : never;

/**
 * Calls `onEvent` for each new event of the data set on screen whose type is in `types`
 * (exact, or `resource.*`), within about a second of its commit. One server-sent-event stream
 * per page; the server reads the events table once per process, not once per browser.
 */
export function useLiveEvents(types: LiveEventType[], onEvent: (event: LiveEvent) => void) {
  const trpc = useTRPC();
  // useSubscription calls the latest onData it was given, so a new closure per render is fine.
  const subscription = useSubscription(trpc.live.events.subscriptionOptions({ types }, { onData: onEvent }));
  useLiveReadiness(subscription.status === "pending");
  return subscription;
}

/** Refetches the given queries whenever one of `types` happens elsewhere (another browser, the API). */
export function useLiveInvalidate(types: LiveEventType[], ...filters: QueryFilters[]) {
  const queryClient = useQueryClient();
  return useLiveEvents(types, () => {
    for (const filter of filters) void queryClient.invalidateQueries(filter);
  });
}

// The page's streams, and whether each is open ("pending" in tRPC's words: connected, waiting for data).
const streams = new Map<string, boolean>();

/**
 * Says on `<html data-live>` whether every live stream of the page is open ("ready") or not
 * ("connecting"): a signal for people's tools and browser tests that a change made elsewhere
 * from now on will show, instead of a guessed sleep.
 */
function useLiveReadiness(open: boolean) {
  const id = useId();
  useEffect(() => {
    streams.set(id, open);
    showReadiness();
    return () => {
      streams.delete(id);
      showReadiness();
    };
  }, [id, open]);
}

function showReadiness() {
  const root = document.documentElement;
  if (streams.size === 0) delete root.dataset.live;
  else root.dataset.live = [...streams.values()].every(Boolean) ? "ready" : "connecting";
}
