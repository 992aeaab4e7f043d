import { AppError } from '../errors';

/** The 401 of every /api/v1 call without a live key. */
export const API_KEY_REQUIRED = 'A valid API key is required (Authorization: Bearer <key>).';

/**
 * The one place where PostgreSQL SQLSTATEs become domain errors. Everything else in the code base
 * sees AppError codes, never SQLSTATEs.
 */
export const SQLSTATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  exclusionViolation: '23P01',
  insufficientPrivilege: '42501',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  illegalKeyTransition: 'UK001',
  keyIdentityChanged: 'UK002',
  auditAppendOnly: 'UA001',
  noFreePin: 'UK003',
  keyNotAllowed: 'UK004',
  keyRevoked: 'UK005',
  staffCodeWindow: 'UK006',
  notFound: 'UN404',
  apiKeyNotLive: 'UN401',
  checkInTooEarly: 'UC001',
  roomOccupied: 'UC002',
  checkInNotReady: 'UC003',
  // Guest self check-in (migration 20261206000000_guest_self_check_in).
  deskCheckIn: 'UC004',
  registrationRequired: 'UC005',
  roomsUnavailable: 'UB001',
  stayCannotChange: 'UR001',
  roomCannotTakeStay: 'UR002',
  stayChangeInvalid: 'UR003',
  neverCheckedIn: 'UR004',
  unknownRooms: 'UB002',
  roomArchived: 'UR005',
  stayChangedMeanwhile: 'UR006',
  extensionPending: 'UR007',
  tooManyHolds: 'UB004',
  lastManager: 'UM001',
  // Accounts (migration 20261204220000_staff_accounts).
  alreadyMember: 'UU001',
  noOpenAccountLink: 'UU002',
  invitationForAnotherAccount: 'UU003',
  accountHasPassword: 'UU004',
  sessionEnded: 'UU005',
  invitationNotOpen: 'UU006',
  passwordNotChosen: 'UU007',
  dataKeyMissing: 'US001',
  secretInvalid: 'US002',
  dataKeyMismatch: 'US003',
  dataKeyUnknownVersion: 'US004',
  lockDeviceHeld: 'UL001',
  registerInvalid: 'UG001',
  registerClosed: 'UG002',
  registerKept: 'UG003',
} as const;

function jsonList(text: string | undefined): string[] {
  try {
    const value: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(value) ? value.map(String).sort() : [];
  } catch {
    return [];
  }
}

type DbErrorInfo = { sqlstate: string; constraint?: string; detail?: string; message?: string };

/** Finds the SQLSTATE of a database error, whether it came from node-postgres or through Prisma's adapter. */
export function dbErrorInfo(error: unknown): DbErrorInfo | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const record = current as Record<string, unknown>;
    for (const field of ['originalCode', 'code']) {
      const value = record[field];
      if (typeof value === 'string' && /^[0-9A-Z]{5}$/.test(value) && !/^P\d{4}$/.test(value)) {
        return {
          sqlstate: value,
          constraint: stringField(record, 'constraint') ?? stringField(record, 'constraint_name'),
          detail: stringField(record, 'detail'),
          message: stringField(record, 'originalMessage') ?? stringField(record, 'message'),
        };
      }
    }
    for (const key of ['cause', 'meta', 'driverAdapterError', 'error']) {
      if (record[key]) queue.push(record[key]);
    }
  }
  return null;
}

/** The constraint an error names: node-postgres gives it, Prisma's adapter only in the message. */
function constraintOf(info: DbErrorInfo): string | undefined {
  return info.constraint ?? /constraint "([^"]+)"/.exec(info.message ?? '')?.[1];
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

export function hasSqlstate(error: unknown, sqlstate: string): boolean {
  return dbErrorInfo(error)?.sqlstate === sqlstate;
}

// ENOENT: the server's Unix socket is gone (it is stopped).
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'P1001',
  'P1002',
  'P1017',
  'P2024',
]);

/** Whether the database could not be reached at all (down, restarting, connection lost). */
export function isConnectionError(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const record = current as Record<string, unknown>;
    const code =
      typeof record.code === 'string'
        ? record.code
        : typeof record.originalCode === 'string'
          ? record.originalCode
          : '';
    if (CONNECTION_CODES.has(code) || /^(08|57P0)/.test(code)) return true;
    const kind = typeof record.kind === 'string' ? record.kind : '';
    if (/DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections/i.test(kind)) return true;
    const message = typeof record.message === 'string' ? record.message : '';
    if (
      /Connection terminated|connect (ECONNREFUSED|ENOENT)|Can't reach database server|server closed the connection|the database system is (starting up|shutting down)/i.test(
        message,
      )
    )
      return true;
    for (const key of ['cause', 'meta', 'driverAdapterError', 'error']) if (record[key]) queue.push(record[key]);
  }
  return false;
}

/** Maps a database error to an AppError where the SQLSTATE has a domain meaning; otherwise returns it unchanged. */
export function toDomainError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (isConnectionError(error))
    return new AppError(
      'unavailable',
      'The service is briefly unavailable; try again.',
      { retryAfter: 5 },
      { cause: error },
    );
  const info = dbErrorInfo(error);
  if (!info) return error;
  switch (info.sqlstate) {
    case SQLSTATE.illegalKeyTransition: {
      const match = /from=(\w+) to=(\w+)/.exec(info.detail ?? info.message ?? '');
      return new AppError(
        'illegal_transition',
        'That key cannot move to the requested state.',
        {
          from: match?.[1],
          to: match?.[2],
        },
        { cause: error },
      );
    }
    case SQLSTATE.checkInTooEarly:
      return new AppError(
        'too_early',
        'Check-in for this stay has not opened yet.',
        { opensAt: info.detail },
        { cause: error },
      );
    case SQLSTATE.roomOccupied:
      return new AppError(
        'room_unavailable',
        'Another stay of this room overlaps the hours before this one starts; it cannot be checked in early.',
        {},
        { cause: error },
      );
    case SQLSTATE.checkInNotReady:
      return new AppError(
        'reservation_not_ready',
        info.message ?? 'This reservation cannot be checked in.',
        { status: info.detail },
        { cause: error },
      );
    case SQLSTATE.deskCheckIn:
      return new AppError('desk_check_in', 'At this property the front desk checks guests in.', {}, { cause: error });
    case SQLSTATE.registrationRequired:
      return new AppError(
        'registration_required',
        'Every guest of this stay must be registered before check-in.',
        {},
        { cause: error },
      );
    case SQLSTATE.notFound:
      return new AppError('not_found', 'Not found.', {}, { cause: error });
    // A lock device another tenant holds: to a tenant it does not exist (the operator's commands say more).
    case SQLSTATE.lockDeviceHeld:
      return new AppError('not_found', 'Not found.', {}, { cause: error });
    // app_api_key_live: the key was revoked after this process cached it.
    case SQLSTATE.apiKeyNotLive:
      return new AppError('unauthorized', API_KEY_REQUIRED, {}, { cause: error });
    // Stay changes (migration 20261201150000_stay_changes): the messages are written for people.
    case SQLSTATE.stayCannotChange: {
      const match = /from=(\w+) to=([\w ]+)/.exec(info.detail ?? '');
      return new AppError(
        'illegal_transition',
        info.message ?? 'This stay cannot change that way.',
        { from: match?.[1], to: match?.[2] },
        { cause: error },
      );
    }
    case SQLSTATE.roomCannotTakeStay:
      return new AppError('room_unavailable', info.message ?? 'That room cannot take this stay.', {}, { cause: error });
    case SQLSTATE.stayChangeInvalid:
      return new AppError(
        'invalid_request',
        info.message ?? 'That change is not possible.',
        { issues: [{ path: info.detail ?? 'endsAt', message: info.message ?? 'invalid', code: 'custom' }] },
        { cause: error },
      );
    case SQLSTATE.extensionPending:
      return new AppError(
        'extension_pending',
        'The last extension of this stay lapsed unpaid; a new one can be asked for from retryAt.',
        { retryAt: info.detail },
        { cause: error },
      );
    case SQLSTATE.tooManyHolds:
      return new AppError(
        'too_many_holds',
        'This address or mailbox already holds 2 unpaid bookings at this facility: pay for or cancel one first.',
        { limit: 2 },
        { cause: error },
      );
    case SQLSTATE.neverCheckedIn:
      return new AppError(
        'reservation_not_ready',
        info.message ?? 'This stay was never checked in.',
        { status: info.detail },
        { cause: error },
      );
    // The guest register (prisma/sql/registration): the messages are written for people, with no personal data.
    case SQLSTATE.registerInvalid:
      return new AppError(
        'invalid_request',
        info.message ?? 'The register is not valid as written.',
        { issues: [{ path: 'guests', message: info.message ?? 'not valid', code: 'invalid_register' }] },
        { cause: error },
      );
    case SQLSTATE.registerClosed:
      return new AppError('conflict', info.message ?? 'This stay takes no guest register now.', {}, { cause: error });
    case SQLSTATE.registerKept:
      return new AppError(
        'conflict',
        info.message ?? 'The guest register is kept until its retention ends.',
        {},
        {
          cause: error,
        },
      );
    case SQLSTATE.dataKeyMissing:
      return new AppError(
        'data_key_mismatch',
        'APP_DATA_KEY is missing or too short (at least 16 characters).',
        {},
        { cause: error },
      );
    case SQLSTATE.secretInvalid:
      return new AppError(
        'invalid_request',
        'A secret must be 1 to 4096 characters.',
        { issues: [{ path: 'value', message: '1 to 4096 characters', code: 'too_big' }] },
        { cause: error },
      );
    case SQLSTATE.dataKeyUnknownVersion:
      return new AppError(
        'data_key_mismatch',
        info.message ?? 'A secret is on a key version this install has no key for (APP_DATA_KEYS).',
        {},
        { cause: error },
      );
    case SQLSTATE.dataKeyMismatch:
      return new AppError(
        'data_key_mismatch',
        info.message ?? 'A secret cannot be decrypted with the data key given; nothing was changed.',
        {},
        { cause: error },
      );
    case SQLSTATE.roomsUnavailable:
      return new AppError(
        'room_unavailable',
        'Some rooms are not available for those dates; nothing was held.',
        { roomIds: jsonList(info.detail) },
        { cause: error },
      );
    // app_request_stay_extension: the stay's end moved since the extension was priced.
    case SQLSTATE.stayChangedMeanwhile:
      return new AppError('conflict', info.message ?? 'The stay changed meanwhile.', {}, { cause: error });
    case SQLSTATE.roomArchived:
      return new AppError(
        'room_unavailable',
        'This room is archived and takes no new stays.',
        { roomIds: jsonList(info.detail), reason: 'room_archived' },
        { cause: error },
      );
    case SQLSTATE.lastManager:
      return new AppError(
        'last_manager',
        'A tenant keeps at least one active manager: make someone else a manager first.',
        {},
        { cause: error },
      );
    case SQLSTATE.alreadyMember:
      return new AppError('conflict', 'This email is already a member of this tenant.', {}, { cause: error });
    // One answer for a link that is unknown, used, ended or past its end.
    case SQLSTATE.noOpenAccountLink:
      return new AppError('not_found', 'This link is not valid any more.', {}, { cause: error });
    case SQLSTATE.invitationForAnotherAccount:
      return new AppError('forbidden', 'This link is for another account.', {}, { cause: error });
    case SQLSTATE.accountHasPassword:
      return new AppError(
        'conflict',
        'This account has a password already: sign in to accept the invitation.',
        {},
        { cause: error },
      );
    case SQLSTATE.invitationNotOpen:
      return new AppError(
        'conflict',
        'This invitation was answered, revoked or sent again meanwhile.',
        {},
        { cause: error },
      );
    case SQLSTATE.passwordNotChosen:
      return new AppError(
        'invalid_request',
        'Choose the account’s password on this page.',
        { issues: [{ path: 'next', message: 'required', code: 'required' }] },
        { cause: error },
      );
    case SQLSTATE.sessionEnded:
      return new AppError('unauthorized', 'This session has ended: sign in again.', {}, { cause: error });
    case SQLSTATE.unknownRooms:
      return new AppError(
        'not_found',
        'One or more rooms do not exist.',
        { roomIds: jsonList(info.detail) },
        { cause: error },
      );
    case SQLSTATE.keyNotAllowed:
      return new AppError(
        'reservation_not_ready',
        'This reservation cannot have a key now (cancelled or over).',
        {},
        { cause: error },
      );
    // issue_checkin_key: staff revoked the stay key; a re-issue with a reason is the way back.
    case SQLSTATE.keyRevoked:
      return new AppError(
        'key_revoked',
        info.message ?? 'The stay key was revoked; re-issue it with a reason to give the guest a new one.',
        { keyId: info.detail },
        { cause: error },
      );
    // access_keys_staff_code_rules: one rule for a staff code's window, whoever writes it.
    case SQLSTATE.staffCodeWindow:
      return new AppError(
        'invalid_request',
        info.message ?? 'A staff code lasts at most 31 days and ends in the future.',
        { issues: [{ path: info.detail ?? 'endsAt', message: info.message ?? 'invalid', code: 'custom' }] },
        { cause: error },
      );
    case SQLSTATE.exclusionViolation:
      return new AppError('room_unavailable', 'The room is already booked for that time.', {}, { cause: error });
    case SQLSTATE.foreignKeyViolation:
      // rooms_room_type_fkey names the facility too: a type of another facility (or tenant) is refused.
      if (constraintOf(info) === 'rooms_room_type_fkey')
        return new AppError(
          'invalid_request',
          'That room type is not one of this room’s facility.',
          { issues: [{ path: 'roomTypeId', message: 'not a room type of the room’s facility', code: 'custom' }] },
          { cause: error },
        );
      return error;
    case SQLSTATE.uniqueViolation:
      // facility_slugs: a booking site address is unique on the whole install.
      if (constraintOf(info) === 'facility_slugs_pkey')
        return new AppError('slug_taken', 'This address is taken.', {}, { cause: error });
      // Two uploads raced for a room type's last free place (at most six photos).
      if (constraintOf(info) === 'room_type_photos_tenant_id_room_type_id_position_key')
        return new AppError('conflict', 'A room type has at most 6 photos.', { field: 'photo' }, { cause: error });
      if (constraintOf(info) === 'room_types_tenant_id_facility_id_name_key')
        return new AppError(
          'conflict',
          'This facility already has a room type of that name.',
          { field: 'name' },
          { cause: error },
        );
      if (info.constraint === 'booking_groups_tenant_payment_intent_key' || /payment_intent/.test(info.message ?? '')) {
        return new AppError(
          'payment_intent_in_use',
          'That PaymentIntent already belongs to another of your booking groups.',
          {},
          { cause: error },
        );
      }
      return new AppError('conflict', 'That already exists.', {}, { cause: error });
    case SQLSTATE.insufficientPrivilege:
      return new AppError('forbidden', 'Not allowed.', {}, { cause: error });
    default:
      return error;
  }
}
