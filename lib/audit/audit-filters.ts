import { offsetMs, zonedDayBounds } from '../time/zoned-day';

/** Every action the application writes to the audit log, in the order the filter lists them. */
export const AUDIT_ACTIONS = [
  'key.pre_issued',
  'key.issued',
  'key.revoked',
  'key.expired',
  'key.pin_revealed',
  'key.backup_issued',
  'key.reissued',
  'key.window_changed',
  'key.door_set',
  'key.door_failed',
  'key.door_removed',
  'key.door_remove_failed',
  'key.door_valid_until_end',
  'checkin.completed',
  'checkout.completed',
  'guest_link.rotated',
  'reservation.created',
  'reservation.cancelled',
  'reservation.moved',
  'reservation.changed',
  'staff_code.created',
  'reservation.paid',
  'reservation.refunded',
  'reservation.payment_failed',
  'guest.deleted',
  'guest.updated',
  'registration.recorded',
  'registration.viewed',
  'registration.exported',
  'registration.erased',
  'guest.message_sent',
  'guest.code_problem',
  'webhook.replayed',
  'secret.set',
  'secret.rotated',
  'api_key.created',
  'api_key.revoked',
  'lock_provider.set',
  'locks.synced',
  'room.lock_added',
  'room.door_removed',
  'room.lock_replaced',
  'mail.test_requested',
  'mail.test_sent',
  'lock.resynced',
  'lock.assigned',
  'lock.released',
  'lock.drift_acknowledged',
  'door.unlocked_remotely',
  'door.opened',
  'user.sign_in_throttled',
  'user.sign_in_failed',
  'user.password_changed',
  'user.password_reset',
  'member.invited',
  'member.joined',
  'member.invitation_revoked',
  'member.invitation_declined',
  'member.invitation_resent',
  'payments.stripe_connected',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Actions the application writes that the audit page does not offer as a filter nor translate (it
 * shows them as written): setup of facilities, rooms, members and booking sources. Listing one in
 * `AUDIT_ACTIONS` adds it to the filter and needs its label in messages/.
 */
export const UNLISTED_AUDIT_ACTIONS = [
  // A guest's extension waiting for its online payment, and its hold given back (decision 029).
  'reservation.extension_held',
  'reservation.extension_released',
  'facility.created',
  'facility.updated',
  'room.created',
  'room.updated',
  'room.archived',
  'room.restored',
  'member.created',
  'member.role_changed',
  'member.reactivated',
  'member.deactivated',
  'member.unlocked',
  'booking_source.added',
  'booking_source.removed',
  'room_type.created',
  'room_type.updated',
  'room_type.archived',
  'room_type.photo_added',
  'room_type.photo_removed',
  'facility.published',
  'facility.unpublished',
  'registration.rotated',
  'ical_feed.added',
  'ical_feed.removed',
  'room.ical_url_rotated',
  // The organisation opened by its sign-up's link (app_complete_sign_up): the tenant's first row.
  'tenant.signed_up',
] as const;
export type UnlistedAuditAction = (typeof UNLISTED_AUDIT_ACTIONS)[number];

/** Every action an audit row may carry: the listed ones and the unlisted ones. */
export type WrittenAuditAction = AuditAction | UnlistedAuditAction;

export function isWrittenAuditAction(value: unknown): value is WrittenAuditAction {
  return isAuditAction(value) || (UNLISTED_AUDIT_ACTIONS as readonly unknown[]).includes(value);
}

/** Reason codes written by the system (as opposed to free text typed by staff), shown translated. */
export const AUDIT_REASON_CODES = [
  'superseded_by_checkin',
  'guest_deleted',
  'stay_ended',
  'reservation_cancelled',
  'booking_canceled',
  'early_check_in',
  'replaced_by_offline_code',
  'offline_code',
  'room_moved',
  'checked_out',
  'reissued',
  'no_show',
  'room_booked_before',
  'dates_changed',
  'link_replaced',
  'member_deactivated',
  'room_archived',
  'staff_code_rules',
  'payment_timeout',
  'payment_after_release',
  'retention_ended',
  'guest_code_problem',
] as const;
export type AuditReasonCode = (typeof AUDIT_REASON_CODES)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(value);
}

export function isAuditReasonCode(value: unknown): value is AuditReasonCode {
  return typeof value === 'string' && (AUDIT_REASON_CODES as readonly string[]).includes(value);
}

/**
 * Families of actions the audit page filters by at once, as `<prefix>.*`: "All door events" is every listed action
 * of a door (`door.opened`, `door.unlocked_remotely`), so a manager reads who came through a door and who opened
 * it remotely in one list.
 */
export const AUDIT_ACTION_GROUPS = ['door.*'] as const;
export type AuditActionGroup = (typeof AUDIT_ACTION_GROUPS)[number];

export function isAuditActionGroup(value: unknown): value is AuditActionGroup {
  return typeof value === 'string' && (AUDIT_ACTION_GROUPS as readonly string[]).includes(value);
}

/** The listed actions a group stands for (its prefix). */
export function actionsOfGroup(group: AuditActionGroup): AuditAction[] {
  const prefix = group.slice(0, -1);
  return AUDIT_ACTIONS.filter((action) => action.startsWith(prefix));
}

/** An action filter as the audit page and its endpoints take it: one action, or a group of them. */
export type AuditActionFilter = AuditAction | AuditActionGroup;

/** The actions an action filter matches. */
export function actionsOf(filter: AuditActionFilter): AuditAction[] {
  return isAuditActionGroup(filter) ? actionsOfGroup(filter) : [filter];
}

/** An action filter as `listAuditEvents` takes it: one action, or any action of a group. */
export function auditActionQuery(filter: AuditActionFilter | '' | undefined): { action?: string; actions?: string[] } {
  if (!filter) return {};
  return isAuditActionGroup(filter) ? { actions: actionsOfGroup(filter) } : { action: filter };
}

/** The audit page's filters as they live in its URL: dates are calendar days (YYYY-MM-DD) in the facility's zone. */
export type AuditUrlFilters = {
  action: AuditActionFilter | '';
  actor: string;
  subjectId: string;
  roomId: string;
  from: string;
  to: string;
};

export const EMPTY_AUDIT_FILTERS: AuditUrlFilters = {
  action: '',
  actor: '',
  subjectId: '',
  roomId: '',
  from: '',
  to: '',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ACTOR_MAX = 200;

function one(value: string | string[] | null | undefined): string {
  return ((Array.isArray(value) ? value[0] : value) ?? '').trim();
}

function isDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

/**
 * Reads the filters from URL search params, dropping anything malformed (an unknown action, an id
 * that is not a UUID, a date that is not a calendar day) rather than failing the page.
 */
export function parseAuditUrlFilters(
  params: Record<string, string | string[] | undefined> | URLSearchParams,
): AuditUrlFilters {
  const get = (name: string) => one(params instanceof URLSearchParams ? params.get(name) : params[name]);
  const action = get('action');
  const subjectId = get('subjectId').toLowerCase();
  const roomId = get('roomId').toLowerCase();
  const from = get('from');
  const to = get('to');
  return {
    action: isAuditAction(action) || isAuditActionGroup(action) ? action : '',
    actor: get('actor').slice(0, ACTOR_MAX),
    subjectId: UUID.test(subjectId) ? subjectId : '',
    roomId: UUID.test(roomId) ? roomId : '',
    from: isDay(from) ? from : '',
    to: isDay(to) ? to : '',
  };
}

/** The filters as page URL search params, empty ones left out (so a clean URL means "no filter"). */
export function auditUrlSearch(filters: AuditUrlFilters): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  return params.toString();
}

/** The instant that begins calendar day `day` (YYYY-MM-DD) in `timeZone`. */
export function zonedDayStart(day: string, timeZone: string): Date {
  const m = DAY.exec(day);
  if (!m) throw new RangeError(`not a calendar day: ${day}`);
  // Local noon of that day is inside it whatever the offset or a DST change; its day's bounds follow.
  const noonWall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12);
  const noon = new Date(noonWall - offsetMs(new Date(noonWall), timeZone));
  return zonedDayBounds(noon, timeZone).start;
}

/**
 * The half-open instant range `[from, to)` the date inputs mean in the facility's time zone: from the
 * start of the first day to the end of the last one (both inclusive as days).
 */
export function auditDayRange(
  filters: Pick<AuditUrlFilters, 'from' | 'to'>,
  timeZone: string,
): { from?: Date; to?: Date } {
  const range: { from?: Date; to?: Date } = {};
  if (filters.from) range.from = zonedDayStart(filters.from, timeZone);
  if (filters.to) {
    const start = zonedDayStart(filters.to, timeZone);
    range.to = zonedDayBounds(new Date(start.getTime() + 12 * 3_600_000), timeZone).end;
  }
  return range;
}

/** The query string of the events and export endpoints for these filters: dates become ISO instants. */
export function auditApiSearch(filters: AuditUrlFilters, timeZone: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.action) params.set('action', filters.action);
  if (filters.actor) params.set('actor', filters.actor);
  if (filters.subjectId) params.set('subjectId', filters.subjectId);
  if (filters.roomId) params.set('roomId', filters.roomId);
  const range = auditDayRange(filters, timeZone);
  if (range.from) params.set('from', range.from.toISOString());
  if (range.to) params.set('to', range.to.toISOString());
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  return params.toString();
}
