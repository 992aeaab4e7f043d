import type { WebhookProvider } from '../db/generated/enums';

/** What processing one stored event came to. Expected outcomes are values, not throws. */
export type WebhookOutcome =
  | { status: 'processed' }
  | { status: 'ignored'; reason: string }
  | { status: 'rejected'; reason: string }
  /** A failure that retrying cannot fix (e.g. tenant integrity): recorded as failed, never retried. */
  | { status: 'failed'; reason: string };

export type StoredWebhookEvent = {
  id: string;
  provider: WebhookProvider;
  type: string;
  tenantId: string | null;
  payload: unknown;
  providerCreatedAt: Date | null;
  receivedAt: Date;
};

export type WebhookHandler = (event: StoredWebhookEvent) => Promise<WebhookOutcome>;
