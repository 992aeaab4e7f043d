import { z } from 'zod';
import { recordDoorEntry, type EntryMethod } from '../../locks/door-entries';
import { applyLockEvent } from '../../locks/lock-events';
import type { LockEvent } from '../../locks/provider';
import type { StoredWebhookEvent, WebhookHandler, WebhookOutcome } from '../types';

/** Seam's event types we act on, and what each is in our words (LockEvent). */
export const SEAM_EVENT_KINDS = {
  'access_code.set_on_device': 'code_set',
  'access_code.removed_from_device': 'code_removed',
  'access_code.failed_to_set_on_device': 'code_failed',
  'access_code.delay_in_setting_on_device': 'code_delayed',
  'device.connected': 'device_connected',
  'device.disconnected': 'device_disconnected',
  'device.low_battery': 'low_battery',
  'device.tampered': 'tampered',
} as const satisfies Record<string, LockEvent['kind']>;

export type SeamEventType = keyof typeof SEAM_EVENT_KINDS;

const ZIdSchema = z.string().min(1).max(200);
const ZTimeSchema = z.string().refine((value) => !Number.isNaN(new Date(value).getTime()), 'not a time');

// Seam's payloads (`@seamapi/types` events): the event's own fields at the top level.
const ZCommonSchema = z.looseObject({
  event_type: z.string(),
  device_id: ZIdSchema,
  occurred_at: ZTimeSchema.nullish(),
  created_at: ZTimeSchema.nullish(),
});
const ZCodeEventSchema = ZCommonSchema.extend({
  access_code_id: ZIdSchema,
  error_code: z.string().max(100).nullish(),
});
const ZDeviceEventSchema = ZCommonSchema.extend({
  // Seam reports battery as 0–1.
  battery_level: z.number().min(0).max(1).nullish(),
});

/** The error a code event stands for when Seam's payload names none. */
const DEFAULT_ERROR: Partial<Record<LockEvent['kind'], string>> = {
  code_failed: 'failed_to_set_on_device',
  code_delayed: 'delay_in_setting_on_device',
};

/**
 * A Seam event payload as a LockEvent, or the reason it is not one (an unknown type, a missing or
 * mistyped field, no time). Nothing is guessed: a payload without its device or code is not an event.
 */
export function seamLockEvent(payload: unknown): { ok: true; event: LockEvent } | { ok: false; reason: string } {
  const common = ZCommonSchema.safeParse(payload);
  if (!common.success) return { ok: false, reason: `unparseable_payload: ${issuePaths(common.error)}` };
  const type = common.data.event_type;
  if (!(type in SEAM_EVENT_KINDS)) return { ok: false, reason: 'unhandled_event_type' };
  const kind = SEAM_EVENT_KINDS[type as SeamEventType];
  const when = common.data.occurred_at ?? common.data.created_at;
  if (!when) return { ok: false, reason: 'unparseable_payload: occurred_at' };
  const occurredAt = new Date(when);
  if (kind === 'code_set' || kind === 'code_removed' || kind === 'code_failed' || kind === 'code_delayed') {
    const parsed = ZCodeEventSchema.safeParse(payload);
    if (!parsed.success) return { ok: false, reason: `unparseable_payload: ${issuePaths(parsed.error)}` };
    return {
      ok: true,
      event: {
        kind,
        deviceId: parsed.data.device_id,
        codeId: parsed.data.access_code_id,
        error: parsed.data.error_code ?? DEFAULT_ERROR[kind] ?? null,
        occurredAt,
      },
    };
  }
  const parsed = ZDeviceEventSchema.safeParse(payload);
  if (!parsed.success) return { ok: false, reason: `unparseable_payload: ${issuePaths(parsed.error)}` };
  const level = parsed.data.battery_level;
  return {
    ok: true,
    event: {
      kind,
      deviceId: parsed.data.device_id,
      batteryLevel: typeof level === 'number' ? Math.round(level * 100) : null,
      occurredAt,
    },
  };
}

/** Field paths only: a reason never quotes the payload. */
function issuePaths(error: z.ZodError): string {
  return [...new Set(error.issues.map((issue) => issue.path.join('.') || '(root)'))].slice(0, 5).join(', ');
}

/**
 * One handler for Seam's code and device events: the payload becomes a LockEvent applied to the
 * tenant's keys and locks (lib/locks/lock-events.ts); a payload that does not parse is ignored with
 * its reason, never guessed at.
 */
export const handleSeamLockEvent: WebhookHandler = async (stored: StoredWebhookEvent): Promise<WebhookOutcome> => {
  // The route stores Seam events only under the tenant whose secret signed them.
  if (!stored.tenantId) return { status: 'failed', reason: 'tenant_missing' };
  const parsed = seamLockEvent(stored.payload);
  if (!parsed.ok) return { status: 'ignored', reason: parsed.reason };
  return applyLockEvent({ tenantId: stored.tenantId, provider: 'seam', event: parsed.event });
};

/** Seam's lock methods (`lock_method`) in our words: a keycode is a code, Seam's API is the app. */
const SEAM_METHODS: Record<string, EntryMethod> = {
  keycode: 'code',
  manual: 'manual',
  seamapi: 'app',
  automatic: 'unknown',
  unknown: 'unknown',
};

const ZDoorEventSchema = ZCommonSchema.extend({
  event_id: ZIdSchema,
  event_type: z.enum(['lock.unlocked', 'lock.locked']),
  access_code_id: ZIdSchema.nullish(),
  action_attempt_id: ZIdSchema.nullish(),
  method: z.string().max(50).nullish(),
});

/**
 * Seam's `lock.unlocked` / `lock.locked`: one door entry per Seam event id within the tenant, naming the key whose
 * code (`access_code_id`) is on that lock. Another tenant's device records nothing.
 */
export const handleSeamDoorEvent: WebhookHandler = async (stored: StoredWebhookEvent): Promise<WebhookOutcome> => {
  if (!stored.tenantId) return { status: 'failed', reason: 'tenant_missing' };
  const parsed = ZDoorEventSchema.safeParse(stored.payload);
  if (!parsed.success) return { status: 'ignored', reason: `unparseable_payload: ${issuePaths(parsed.error)}` };
  const event = parsed.data;
  const when = event.occurred_at ?? event.created_at;
  if (!when) return { status: 'ignored', reason: 'unparseable_payload: occurred_at' };
  const method = SEAM_METHODS[event.method ?? 'unknown'] ?? 'unknown';
  const recorded = await recordDoorEntry({
    tenantId: stored.tenantId,
    provider: 'seam',
    eventId: event.event_id,
    deviceId: event.device_id,
    // A code opened it when Seam names one (its method may still say unknown).
    codeId: event.access_code_id ?? null,
    kind: event.event_type === 'lock.unlocked' ? 'unlocked' : 'locked',
    method: event.access_code_id && event.event_type === 'lock.unlocked' ? 'code' : method,
    occurredAt: new Date(when),
    actionId: event.action_attempt_id ?? null,
    // The audit row of the opening points at this webhook event (the webhook log shows it).
    sourceId: stored.id,
  });
  if (!recorded) return { status: 'ignored', reason: 'unknown_device' };
  return { status: 'processed' };
};

/** The registry's entries for Seam: the code and device events go to the one handler, the door's own to entries. */
export const SEAM_HANDLERS: Record<SeamEventType | 'lock.unlocked' | 'lock.locked', WebhookHandler> = {
  ...(Object.fromEntries(Object.keys(SEAM_EVENT_KINDS).map((type) => [type, handleSeamLockEvent])) as Record<
    SeamEventType,
    WebhookHandler
  >),
  'lock.unlocked': handleSeamDoorEvent,
  'lock.locked': handleSeamDoorEvent,
};
