import type { WebhookProvider, WebhookStatus } from '../db/generated/enums';

/** Every provider the inbox stores: the database's enum (a provider missing here fails to compile). */
export const WEBHOOK_PROVIDERS = [
  'stripe',
  'calendly',
  'cal',
  'acuity',
  'seam',
] as const satisfies readonly WebhookProvider[];
export const _everyProviderListed: [Exclude<WebhookProvider, (typeof WEBHOOK_PROVIDERS)[number]>] extends [never]
  ? true
  : never = true;
export const WEBHOOK_STATUSES = [
  'received',
  'processed',
  'ignored',
  'rejected',
  'failed',
  'dead',
] as const satisfies readonly WebhookStatus[];

/** The longest window a manager may replay at once. */
export const REPLAY_MAX_DAYS = 31;

/** Reason codes the processors write that the webhook log explains in words; any other is shown raw. */
export const WEBHOOK_REASON_CODES = [
  'created_after_cancel',
  'slot_unavailable',
  'room_archived',
  'unmapped_event_type',
  'no_matching_reservation',
  'tenant_mismatch',
  'tenant_integrity',
  'unknown_account',
  'unhandled_event_type',
  'too_deep',
  'appointment_not_found',
  'stay_cannot_move',
] as const;
export type WebhookReasonCode = (typeof WEBHOOK_REASON_CODES)[number];

export function isWebhookProvider(value: unknown): value is WebhookProvider {
  return typeof value === 'string' && (WEBHOOK_PROVIDERS as readonly string[]).includes(value);
}

export function isWebhookStatus(value: unknown): value is WebhookStatus {
  return typeof value === 'string' && (WEBHOOK_STATUSES as readonly string[]).includes(value);
}

export function isWebhookReasonCode(value: unknown): value is WebhookReasonCode {
  return typeof value === 'string' && (WEBHOOK_REASON_CODES as readonly string[]).includes(value);
}

/** The webhook log's filters as they live in its URL: `from`/`to` are calendar days (YYYY-MM-DD) in the facility's zone. */
export type WebhookLogUrlFilters = {
  provider: WebhookProvider | '';
  status: WebhookStatus | '';
  from: string;
  to: string;
  cursor: string;
  /** One event by id (a link from an audit row or an incident); empty for none. */
  event: string;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;
const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function one(value: string | string[] | null | undefined): string {
  return ((Array.isArray(value) ? value[0] : value) ?? '').trim();
}

/** Reads the filters from URL search params, dropping anything malformed rather than failing the page. */
export function parseWebhookLogUrlFilters(params: Record<string, string | string[] | undefined>): WebhookLogUrlFilters {
  const provider = one(params.provider);
  const status = one(params.status);
  const from = one(params.from);
  const to = one(params.to);
  const cursor = one(params.cursor);
  const event = one(params.event);
  return {
    provider: isWebhookProvider(provider) ? provider : '',
    status: isWebhookStatus(status) ? status : '',
    from: DAY.test(from) ? from : '',
    to: DAY.test(to) ? to : '',
    cursor: CURSOR.test(cursor) ? cursor : '',
    event: EVENT_ID.test(event) ? event.toLowerCase() : '',
  };
}

/** The log's URL for a set of filters (empty ones left out). */
export function webhookLogHref(filters: Partial<WebhookLogUrlFilters>): string {
  const query = new URLSearchParams();
  for (const name of ['provider', 'status', 'from', 'to', 'cursor', 'event'] as const) {
    const value = filters[name];
    if (value) query.set(name, value);
  }
  const text = query.toString();
  return text ? `/manage/webhooks?${text}` : '/manage/webhooks';
}
