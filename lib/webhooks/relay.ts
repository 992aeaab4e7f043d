import { serviceStatement, statement } from '../db/tx';

export const RELAY_BATCH = 200;

/**
 * Hands up to `limit` stored, not yet queued webhook events to the job queue (one
 * `process_webhook_event` job each, added in one call) and marks them queued, in one transaction.
 * Relays running at once take disjoint batches, so every event gets exactly one job.
 */
export async function relayWebhookEvents(limit = RELAY_BATCH): Promise<number> {
  const [row] = await serviceStatement(statement<{ relayed: number }>('select app_webhook_relay($1::int) as relayed'), [
    limit,
  ]);
  return row?.relayed ?? 0;
}

/**
 * The worker's relay loop: relays again at once while full batches come back (a burst), otherwise
 * looks every `idleMs`. A failure (the database restarting) is reported once, then retried every
 * second until the relay works again.
 */
export function startWebhookRelay(options: { idleMs: number; onError: (error: unknown) => void }): {
  stop: () => Promise<void>;
} {
  let stopped = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    let failing = false;
    while (!stopped) {
      let relayed = 0;
      try {
        relayed = await relayWebhookEvents();
        failing = false;
      } catch (error) {
        if (!failing) options.onError(error);
        failing = true;
      }
      if (relayed < RELAY_BATCH && !stopped) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, failing ? Math.max(options.idleMs, 1000) : options.idleMs);
        });
        wake = null;
      }
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
