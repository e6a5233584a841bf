/**
 * Starts independent queries together, so that they share one round trip (a transaction's
 * connection pipelines them; outside one, the pool runs them at once), and hands back one getter
 * each. A getter returns its query's value or throws its error, so the caller still meets
 * failures in the order it checks them: the contract's order of errors does not depend on which
 * query happened to answer first. For reads, and for writes that no check between them depends
 * on and whose order does not matter to the locks they take.
 */
export async function sideBySide<T extends readonly unknown[]>(queries: { [K in keyof T]: Promise<T[K]> }): Promise<{ [K in keyof T]: () => T[K] }> {
  const settled = await Promise.allSettled(queries as readonly Promise<unknown>[]);
  return settled.map((s) => () => {
    if (s.status === "rejected") throw s.reason;
    return s.value;
  }) as { [K in keyof T]: () => T[K] };
}
