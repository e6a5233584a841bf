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
