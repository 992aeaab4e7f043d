/**
 * Joins concurrent callers with the same key onto one in-flight promise (per process). The first
 * layer of idempotent issuance only: the database guarantees the rest across processes.
 */
export function singleFlight<T>() {
  const inFlight = new Map<string, Promise<T>>();
  return (key: string, run: () => Promise<T>): Promise<T> => {
    const existing = inFlight.get(key);
    if (existing) return existing;
    const promise = run().finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  };
}
