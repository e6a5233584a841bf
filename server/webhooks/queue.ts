import { newId } from "@/server/ids";

/**
 * Who is told when deliveries become due outside the dispatcher's own polling (replay,
 * backfill, re-enable): the in-process dispatcher wakes up, the Inngest driver sends events.
 * Without a listener nothing is lost: the rows are due and the next poll finds them.
 */
export type QueueListener = (deliveryIds: string[], reason: string) => Promise<void> | void;

type Holder = { __innkeepDeliveryListeners?: Set<QueueListener> };
const listeners = () => ((globalThis as Holder).__innkeepDeliveryListeners ??= new Set());

export function onDeliveriesQueued(listener: QueueListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/** Call after the transaction that made the deliveries due has committed (an empty list: "look again"). */
export async function deliveriesQueued(deliveryIds: string[], reason: string): Promise<void> {
  await Promise.all([...listeners()].map((listener) => listener(deliveryIds, reason)));
}

/**
 * The row of one delivery queued by hand (a replay, a test event, a backfill's step): due at
 * `at`, for `event` to `endpointId`. The fan-out writes its own rows in bulk.
 */
export function queuedDelivery(
  owner: { accountId: string; livemode: boolean },
  endpointId: string,
  event: { id: string; type: string; createdAt: Date },
  source: "replay" | "test" | "backfill",
  at: Date,
) {
  return {
    id: newId("delivery"),
    accountId: owner.accountId,
    livemode: owner.livemode,
    endpointId,
    eventId: event.id,
    eventType: event.type,
    eventCreatedAt: event.createdAt,
    source,
    status: "queued" as const,
    nextAttemptAt: at,
  };
}
