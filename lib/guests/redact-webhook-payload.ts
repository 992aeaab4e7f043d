import type { WebhookProvider } from '../db/generated/enums';

// What a stored webhook payload keeps once its guest is deleted: what processing and a replay need
// (ids, times, event types, statuses, amounts) and nothing that names or reaches a person. An
// allowlist, so a field a provider adds tomorrow is erased by default.

type Shape = { [key: string]: true | Shape };

const KEEP: Record<WebhookProvider, Shape> = {
  // A lock's events name devices and codes, never a person.
  seam: {
    event_id: true,
    event_type: true,
    created_at: true,
    occurred_at: true,
    workspace_id: true,
    device_id: true,
    access_code_id: true,
    connected_account_id: true,
    battery_level: true,
    error_code: true,
  },
  calendly: {
    event: true,
    created_at: true,
    payload: {
      uri: true,
      status: true,
      rescheduled: true,
      old_invitee: true,
      new_invitee: true,
      created_at: true,
      updated_at: true,
      scheduled_event: { uri: true, start_time: true, end_time: true, event_type: true, status: true },
      cancellation: { canceler_type: true, created_at: true },
    },
  },
  cal: {
    triggerEvent: true,
    createdAt: true,
    payload: {
      uid: true,
      bookingId: true,
      startTime: true,
      endTime: true,
      eventTypeId: true,
      rescheduleUid: true,
      status: true,
    },
  },
  // A delivery names the appointment, never its client (processing reads the rest from Acuity's API).
  acuity: { action: true, id: true, calendarID: true, appointmentTypeID: true },
  stripe: {
    id: true,
    object: true,
    type: true,
    created: true,
    account: true,
    livemode: true,
    api_version: true,
    data: {
      object: {
        id: true,
        object: true,
        amount: true,
        amount_received: true,
        amount_due: true,
        currency: true,
        status: true,
        payment_intent: true,
        refunded: true,
        metadata: true,
        last_payment_error: { code: true, decline_code: true, type: true },
      },
    },
  },
};

function keep(value: unknown, shape: Shape): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(shape)) {
    const field = (value as Record<string, unknown>)[key];
    if (field === undefined) continue;
    if (rule === true) {
      // Only leaves are kept whole, and only when they are plain values (or the metadata we wrote ourselves).
      if (field === null || typeof field !== 'object' || key === 'metadata') out[key] = field;
    } else {
      const nested = keep(field, rule);
      if (nested !== undefined) out[key] = nested;
    }
  }
  return out;
}

/** A stored payload with everything but the fields processing needs removed, marked `redacted`. */
export function redactWebhookPayload(provider: WebhookProvider, payload: unknown): Record<string, unknown> {
  return { ...((keep(payload, KEEP[provider]) as Record<string, unknown> | undefined) ?? {}), redacted: true };
}
