import { z } from 'zod';
import type { AppErrorCode } from '../errors';
import { apiKeyActor } from './actor';
import { pathId, readJson, readQuery } from './body';
import { json } from './http';
import { getApiKey, listApiKeys } from '../auth/list-api-keys';
import { listAuditEvents } from '../audit/list-audit-events';
import { bookGroup } from '../bookings/book-group';
import { cancelReservation } from '../bookings/cancel-reservation';
import { getReservation, listReservations } from '../bookings/list-reservations';
import { deleteGuest } from '../guests/delete-guest';
import { rotateGuestLink } from '../guests/rotate-guest-link';
import { listReservationKeys } from '../keys/list-reservation-keys';
import { reissueKey } from '../keys/reissue-key';
import { revokeKey } from '../keys/revoke-key';
import { createStaffCode, listStaffCodes } from '../keys/staff-codes';
import { listLocks } from '../locks/locks';
import { listReservationMessages } from '../messages/list-messages';
import { toMessageView } from '../messages/message-view';
import { resendKeyLink } from '../messages/resend-key-link';
import { listRooms } from '../rooms/list-rooms';
import { roomIcalUrl, rotateRoomIcalUrl } from '../ical/export-feed';
import { listDoorEntries } from '../locks/door-entries';
import { remoteUnlock, ZRemoteUnlockBodySchema } from '../locks/remote-unlock';
import { addIcalFeed, listIcalFeeds, ZIcalFeedInputSchema } from '../ical/feeds';
import { recordPayment } from '../payments/record-payment';
import { listRoomTypes, toRoomTypeView } from '../room-types/list-room-types';
import { changeReservationDates } from '../stays/change-dates';
import { checkOutReservation } from '../stays/check-out';
import { completeCheckIn } from '../stays/complete-check-in';
import { issueCheckInKey } from '../stays/issue-check-in-key';
import { moveReservation } from '../stays/move-reservation';
import { listWebhookEvents } from '../webhooks/list-webhook-events';
import type { ApiContext } from './with-api-key';
import { ZMessageSchema, ZSendMessageBodySchema } from './message-schemas';
import {
  dataOf,
  listOf,
  ZApiKeySchema,
  ZAuditEventSchema,
  ZBookingGroupSchema,
  ZCheckInResultSchema,
  ZKeySchema,
  ZLockSchema,
  ZPaymentSchema,
  ZReservationSchema,
  ZRoomSchema,
  ZRoomTypeSchema,
  ZStaffCodeSchema,
  ZWebhookEventSchema,
  ZIcalFeedSchema,
  ZIcalUrlSchema,
  ZDoorEntrySchema,
  ZRemoteUnlockSchema,
} from './response-schemas';
import {
  ZCancelBodySchema,
  ZChangeReservationBodySchema,
  ZCheckInBodySchema,
  ZCheckOutBodySchema,
  ZCreateStaffCodeBodySchema,
  ZCreateBookingGroupBodySchema,
  ZListAuditEventsQuerySchema,
  ZListEntriesQuerySchema,
  ZListReservationsQuerySchema,
  ZListWebhookEventsQuerySchema,
  ZMoveReservationBodySchema,
  ZRecordPaymentBodySchema,
  ZReissueKeyBodySchema,
  ZRevokeKeyBodySchema,
} from './schemas';

/** The kind of tenant-owned thing a path id names: the cross-tenant tests use it to pick another tenant's id. */
export type IdKind = 'reservation' | 'check_in' | 'key' | 'guest' | 'api_key' | 'room' | 'room_type' | 'lock';

/** A route's own work: the API key's principal and the request in, the answer out (errors are mapped by withApiKey). */
export type ApiHandler = (ctx: ApiContext, params: { id: string }) => Promise<Response>;

export type RouteSpec = {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Below /api/v1, OpenAPI style: `/reservations/{id}`. */
  path: string;
  summary: string;
  idKind?: IdKind;
  query?: z.ZodType;
  body?: z.ZodType;
  success: { status: number; description: string; schema?: z.ZodType };
  errors: AppErrorCode[];
  /** What the route does: validates with the schemas above (readJson, readQuery, pathId) and calls lib. */
  handler: ApiHandler;
  /** The handler passes `principal.apiKeyId` to its own transaction, which refuses a revoked key (withApiKey). */
  keyCheckedInTransaction?: true;
};

/**
 * Every /api/v1 route with its schemas and its handler: the router (lib/api/router.ts) serves this
 * list, the OpenAPI document is generated from it, and the cross-tenant and malformed-input tests
 * walk it, so a new route is served, documented and covered by being listed here.
 */
/**
 * A room's or a room type's iCal import feeds (the same bodies and answers): a room type's events are booked on the
 * first of its rooms free for their dates.
 */
function icalFeedRoutes(kind: 'room' | 'room_type'): RouteSpec[] {
  const path = kind === 'room' ? '/rooms/{id}/ical-feeds' : '/room-types/{id}/ical-feeds';
  const target = (id: string) => (kind === 'room' ? { roomId: pathId(id) } : { roomTypeId: pathId(id) });
  const into =
    kind === 'room' ? 'the room' : 'a room type: each event is booked on the first of its rooms free for the dates';
  return [
    {
      method: 'GET',
      path,
      idKind: kind,
      summary: `The ${kind === 'room' ? 'room' : 'room type'}’s iCal import feeds with their last fetch (the feed URL itself is never shown again: its host only)`,
      success: { status: 200, description: 'Import feeds', schema: dataOf(z.array(ZIcalFeedSchema)) },
      errors: ['not_found'],
      handler: async ({ principal, requestId }, { id }) =>
        json({ data: await listIcalFeeds({ tenantId: principal.tenantId, ...target(id) }) }, { requestId }),
    },
    {
      method: 'POST',
      path,
      idKind: kind,
      summary: `Import a channel’s iCal feed into ${into} (fetched now and every ICAL_POLL_MINUTES); audited ical_feed.added`,
      body: ZIcalFeedInputSchema,
      success: { status: 201, description: 'The feed', schema: dataOf(z.object({ id: z.uuid() })) },
      errors: ['invalid_request', 'not_found', 'conflict'],
      handler: async ({ principal, request, requestId }, { id }) => {
        const where = target(id);
        const body = await readJson(request, ZIcalFeedInputSchema);
        const feed = await addIcalFeed({
          tenantId: principal.tenantId,
          ...where,
          ...body,
          actor: apiKeyActor(principal),
        });
        return json({ data: feed }, { status: 201, requestId });
      },
    },
  ];
}

export const API_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/rooms',
    summary: 'List the rooms of the key’s tenant',
    success: { status: 200, description: 'Rooms', schema: listOf(ZRoomSchema) },
    errors: [],
    handler: async ({ principal, requestId }) =>
      json(
        { data: await listRooms({ tenantId: principal.tenantId, apiKeyId: principal.apiKeyId }), nextCursor: null },
        { requestId },
      ),
    keyCheckedInTransaction: true,
  },
  {
    method: 'GET',
    path: '/room-types',
    summary: 'List the room types of the key’s tenant, with their weekday rate and rooms',
    success: { status: 200, description: 'Room types', schema: listOf(ZRoomTypeSchema) },
    errors: [],
    handler: async ({ principal, requestId }) => {
      const types = await listRoomTypes({ tenantId: principal.tenantId, apiKeyId: principal.apiKeyId });
      return json({ data: types.map(toRoomTypeView), nextCursor: null }, { requestId });
    },
    keyCheckedInTransaction: true,
  },
  {
    method: 'GET',
    path: '/locks',
    summary: 'List the locks of the key’s tenant, with the rooms whose door each one is',
    success: { status: 200, description: 'Locks', schema: listOf(ZLockSchema) },
    errors: [],
    handler: async ({ principal, requestId }) =>
      json({ data: await listLocks({ tenantId: principal.tenantId }), nextCursor: null }, { requestId }),
  },
  {
    method: 'POST',
    path: '/booking-groups',
    summary: 'Hold a group of reservations — every room or none',
    body: ZCreateBookingGroupBodySchema,
    success: { status: 201, description: 'The booking group', schema: dataOf(ZBookingGroupSchema) },
    errors: [
      'invalid_request',
      'not_found',
      'room_unavailable',
      'payment_intent_in_use',
      'payment_intent_invalid',
      'unavailable',
    ],
    handler: async ({ principal, request, requestId }) => {
      const body = await readJson(request, ZCreateBookingGroupBodySchema);
      const group = await bookGroup({
        tenantId: principal.tenantId,
        actor: apiKeyActor(principal),
        source: 'api',
        ...body,
      });
      return json({ data: group }, { status: 201, requestId });
    },
  },
  {
    method: 'GET',
    path: '/reservations',
    summary: 'Reservations overlapping [from, to)',
    query: ZListReservationsQuerySchema,
    success: { status: 200, description: 'A page of reservations', schema: listOf(ZReservationSchema) },
    errors: ['invalid_request'],
    handler: async ({ principal, request, requestId }) => {
      const query = readQuery(request, ZListReservationsQuerySchema);
      return json(await listReservations({ tenantId: principal.tenantId, apiKeyId: principal.apiKeyId, ...query }), {
        requestId,
      });
    },
    keyCheckedInTransaction: true,
  },
  {
    method: 'GET',
    path: '/entries',
    summary:
      'Door entries (openings and lockings the lock providers reported, once each), newest first: of a room, of a stay, within [from, to)',
    query: ZListEntriesQuerySchema,
    success: { status: 200, description: 'A page of door entries', schema: listOf(ZDoorEntrySchema) },
    errors: ['invalid_request'],
    handler: async ({ principal, request, requestId }) => {
      const query = readQuery(request, ZListEntriesQuerySchema);
      return json(await listDoorEntries({ tenantId: principal.tenantId, apiKeyId: principal.apiKeyId, ...query }), {
        requestId,
      });
    },
    keyCheckedInTransaction: true,
  },
  {
    method: 'POST',
    path: '/locks/{id}/unlock',
    idKind: 'lock',
    summary:
      'Open a door now, remotely (Seam locks/unlock_door, TTLock /v3/lock/unlock through the gateway), for a reason: audited door.unlocked_remotely; the entry the lock reports names who asked. 409 not_supported for a lock that cannot',
    body: ZRemoteUnlockBodySchema,
    success: {
      status: 202,
      description:
        'The request, with the provider’s answer: done, pending while the lock has not confirmed (it converges), or failed (its code in the audit row)',
      schema: dataOf(ZRemoteUnlockSchema),
    },
    errors: ['invalid_request', 'not_found', 'not_supported', 'rate_limited'],
    handler: async ({ principal, request, requestId }, { id }) => {
      const lockId = pathId(id);
      const body = await readJson(request, ZRemoteUnlockBodySchema);
      const unlocked = await remoteUnlock({
        tenantId: principal.tenantId,
        lockId,
        reason: body.reason,
        actor: apiKeyActor(principal),
      });
      return json({ data: unlocked }, { status: 202, requestId });
    },
  },
  {
    method: 'GET',
    path: '/reservations/{id}',
    idKind: 'reservation',
    summary: 'One reservation',
    success: { status: 200, description: 'The reservation', schema: dataOf(ZReservationSchema) },
    errors: ['not_found'],
    handler: async ({ principal, requestId }, { id }) =>
      json({ data: await getReservation({ tenantId: principal.tenantId, reservationId: pathId(id) }) }, { requestId }),
  },
  {
    method: 'POST',
    path: '/reservations/{id}/cancel',
    idKind: 'reservation',
    summary: 'Cancel a reservation: frees the room, revokes its live keys',
    body: ZCancelBodySchema,
    success: {
      status: 200,
      description: 'Cancelled',
      schema: dataOf(z.object({ id: z.uuid(), status: z.literal('cancelled') })),
    },
    errors: ['invalid_request', 'not_found'],
    handler: async ({ principal, request, requestId }, { id }) => {
      const reservationId = pathId(id);
      const { reason } = await readJson(request, ZCancelBodySchema);
      const data = await cancelReservation({
        tenantId: principal.tenantId,
        reservationId,
        reason,
        actor: apiKeyActor(principal),
      });
      return json({ data }, { requestId });
    },
  },
  {
    method: 'POST',
    path: '/reservations/{id}/payments',
    idKind: 'reservation',
    summary:
      'Record a payment taken at the property (cash, card terminal): the stay is paid from its first payment (audited reservation.paid)',
    body: ZRecordPaymentBodySchema,
    success: { status: 201, description: 'The payment', schema: dataOf(ZPaymentSchema) },
    errors: ['invalid_request', 'not_found', 'illegal_transition'],
    handler: async ({ principal, request, requestId }, { id }) => {
      const reservationId = pathId(id);
      const body = await readJson(request, ZRecordPaymentBodySchema);
      const data = await recordPayment({
        tenantId: principal.tenantId,
        reservationId,
        ...body,
        actor: apiKeyActor(principal),
      });
      return json({ data }, { status: 201, requestId });
    },
  },
  {
    method: 'POST',
    path: '/reservations/{id}/check-in',
    idKind: 'reservation',
    summary:
      'Complete the check-in; repeating it returns the same check-in and key. Before the stay’s start minus the facility’s early check-in minutes: 409 too_early with opensAt, unless {"early": true} (audited; refused while another stay overlaps)',
    body: ZCheckInBodySchema,
    success: { status: 200, description: 'The check-in', schema: dataOf(ZCheckInResultSchema) },
    errors: ['invalid_request', 'not_found', 'reservation_not_ready', 'too_early', 'room_unavailable'],
    handler: async ({ principal, request, requestId }, { id }) => {
      const reservationId = pathId(id);
      const { early } = await readJson(request, ZCheckInBodySchema, { optional: true });
      const result = await completeCheckIn({
        tenantId: principal.tenantId,
        reservationId,
        actor: apiKeyActor(principal),
        early,
      });
      return json({ data: result }, { requestId });
    },
  },
  {
    method: 'POST',
    path: '/check-ins/{id}/key',
    idKind: 'check_in',
    summary: 'The live key of a check-in, issued if none; concurrent callers get the same key',
    success: { status: 200, description: 'The key', schema: dataOf(ZKeySchema) },
    errors: ['not_found', 'reservation_not_ready'],
    handler: async ({ principal, requestId }, { id }) => {
      const key = await issueCheckInKey({
        tenantId: principal.tenantId,
        checkInId: pathId(id),
        actor: apiKeyActor(principal),
        apiKeyId: principal.apiKeyId,
      });
      return json({ data: key }, { requestId });
    },
    keyCheckedInTransaction: true,
  },
  {
    method: 'POST',
    path: '/reservations/{id}/guest-link',
    idKind: 'reservation',
    summary: 'A new guest link; the old one answers 404 from now on (audited guest_link.rotated)',
    success: { status: 200, description: 'The new link', schema: dataOf(z.object({ guestUrl: z.url() })) },
    errors: ['not_found', 'reservation_not_ready'],
    handler: async ({ principal, requestId }, { id }) => {
      const data = await rotateGuestLink({
        tenantId: principal.tenantId,
        reservationId: pathId(id),
        actor: apiKeyActor(principal),
      });
      return json({ data }, { requestId });
    },
  },
  {
    method: 'GET',
    path: '/reservations/{id}/messages',
    idKind: 'reservation',
    summary: 'The emails of a reservation’s guest (the link once per booking and per stay change), newest first',
    success: { status: 200, description: 'Messages', schema: dataOf(z.array(ZMessageSchema)) },
    errors: ['not_found'],
    handler: async ({ principal, requestId }, { id }) => {
      const messages = await listReservationMessages({ tenantId: principal.tenantId, reservationId: pathId(id) });
      return json({ data: messages.map(toMessageView) }, { requestId });
    },
  },
  {
    method: 'POST',
    path: '/reservations/{id}/messages',
    idKind: 'reservation',
    summary:
      'Send the guest link again (audited message.resent; 3 per reservation per 10 minutes). 409 reservation_not_ready for a cancelled or past stay or a guest without an email',
    body: ZSendMessageBodySchema,
    success: { status: 202, description: 'The queued message', schema: dataOf(ZMessageSchema) },
    errors: ['invalid_request', 'not_found', 'reservation_not_ready', 'rate_limited'],
    handler: async ({ principal, request, requestId }, { id }) => {
      const reservationId = pathId(id);
      await readJson(request, ZSendMessageBodySchema);
      const message = await resendKeyLink({
        tenantId: principal.tenantId,
        reservationId,
        actor: apiKeyActor(principal),
      });
      return json({ data: toMessageView(message) }, { status: 202, requestId });
    },
  },
  {
    method: 'GET',
    path: '/reservations/{id}/keys',
    idKind: 'reservation',
    summary: 'Every key of a reservation',
    success: { status: 200, description: 'Keys', schema: dataOf(z.array(ZKeySchema)) },
    errors: ['not_found'],
    handler: async ({ principal, requestId }, { id }) =>
      json(
        { data: await listReservationKeys({ tenantId: principal.tenantId, reservationId: pathId(id) }) },
        { requestId },
      ),
  },
  {
    method: 'POST',
    path: '/keys/{id}/revoke',
    idKind: 'key',
    summary: 'Revoke a key with a reason',
    body: ZRevokeKeyBodySchema,
    success: { status: 200, description: 'The revoked key', schema: dataOf(ZKeySchema) },
    errors: ['invalid_request', 'not_found', 'illegal_transition'],
    handler: async ({ principal, request, requestId }, { id }) => {
      const keyId = pathId(id);
      const { reason } = await readJson(request, ZRevokeKeyBodySchema);
      const key = await revokeKey({ tenantId: principal.tenantId, keyId, reason, actor: apiKeyActor(principal) });
      return json({ data: key }, { requestId });
    },
  },
  // Stay changes (issue 15, item 6): each one transaction with audit rows and lock commands in the outbox.
  {
    method: 'POST',
    path: '/reservations/{id}/check-out',
    idKind: 'reservation',
    summary:
      'Check the stay out: its live keys are revoked (checked_out); calling again returns the same; never checked in → 409 reservation_not_ready',
    body: ZCheckOutBodySchema,
    success: { status: 200, description: 'The checked-out reservation', schema: dataOf(ZReservationSchema) },
    errors: ['invalid_request', 'not_found', 'reservation_not_ready'],
    handler: async ({ principal, request, requestId }, { id }) => {
      const reservationId = pathId(id);
      await readJson(request, ZCheckOutBodySchema, { optional: true });
      const reservation = await checkOutReservation({
        tenantId: principal.tenantId,
        reservationId,
        actor: apiKeyActor(principal),
      });
      return json({ data: reservation }, { requestId });
    },
  },
  {
    method: 'POST',
    path: '/reservations/{id}/move',
    idKind: 'reservation',
    summary:
      'Move the stay to another room: the old room’s live keys are revoked (room_moved) and a key in the same state is issued for the new room with a new PIN (audited reservation.moved). A taken or archived room → 409 room_unavailable; moving to the room it is in changes nothing',
    body: ZMoveReservationBodySchema,
    success: { status: 200, description: 'The reservation on its new room', schema: dataOf(ZReservationSchema) },
    errors: ['invalid_request', 'not_found', 'room_unavailable', 'illegal_transition'],
    handler: async ({ principal, request, requestId }, { id }) => {
      const reservationId = pathId(id);
      const { roomId, reason } = await readJson(request, ZMoveReservationBodySchema);
      const reservation = await moveReservation({
        tenantId: principal.tenantId,
        reservationId,
        roomId,
        reason,
        actor: apiKeyActor(principal),
      });
      return json({ data: reservation }, { requestId });
    },
  },
  {
    method: 'PATCH',
    path: '/reservations/{id}',
    idKind: 'reservation',
    summary:
      'Extend or shorten the stay: its live keys follow the new window on every lock (audited key.window_changed, reservation.changed). A taken room → 409 room_unavailable; a cancelled or checked-out stay, or a new start once checked in → 409 illegal_transition',
    body: ZChangeReservationBodySchema,
    success: { status: 200, description: 'The changed reservation', schema: dataOf(ZReservationSchema) },
    errors: ['invalid_request', 'not_found', 'room_unavailable', 'illegal_transition'],
    handler: async ({ principal, request, requestId }, { id }) => {
      const reservationId = pathId(id);
      const { startsAt, endsAt } = await readJson(request, ZChangeReservationBodySchema);
      const reservation = await changeReservationDates({
        tenantId: principal.tenantId,
        reservationId,
        startsAt,
        endsAt,
        actor: apiKeyActor(principal),
      });
      return json({ data: reservation }, { requestId });
    },
  },
  {
    method: 'POST',
    path: '/keys/{id}/reissue',
    idKind: 'key',
    summary:
      'Re-issue a key: a new key with a different PIN in the same state and window, the old one revoked (reissued), audited key.reissued. From an ended key: a new key when its stay still runs and has no live key, else 409 illegal_transition. A retry answers the same new key',
    body: ZReissueKeyBodySchema,
    success: { status: 200, description: 'The new key', schema: dataOf(ZKeySchema) },
    errors: ['invalid_request', 'not_found', 'illegal_transition'],
    handler: async ({ principal, request, requestId }, { id }) => {
      const keyId = pathId(id);
      const { reason } = await readJson(request, ZReissueKeyBodySchema);
      const key = await reissueKey({ tenantId: principal.tenantId, keyId, reason, actor: apiKeyActor(principal) });
      return json({ data: key }, { requestId });
    },
  },
  {
    method: 'GET',
    path: '/rooms/{id}/staff-codes',
    idKind: 'room',
    summary: 'The staff codes of a room, newest first',
    success: { status: 200, description: 'Staff codes', schema: dataOf(z.array(ZStaffCodeSchema)) },
    errors: ['not_found'],
    handler: async ({ principal, requestId }, { id }) =>
      json({ data: await listStaffCodes({ tenantId: principal.tenantId, roomId: pathId(id) }) }, { requestId }),
  },
  {
    method: 'POST',
    path: '/rooms/{id}/staff-codes',
    idKind: 'room',
    summary:
      'A time-bound code for staff on a room (housekeeping, maintenance, inspection), audited staff_code.created; ended like any key (POST /keys/{id}/revoke)',
    body: ZCreateStaffCodeBodySchema,
    success: { status: 201, description: 'The staff code', schema: dataOf(ZStaffCodeSchema) },
    errors: ['invalid_request', 'not_found', 'room_unavailable'],
    handler: async ({ principal, request, requestId }, { id }) => {
      const roomId = pathId(id);
      const body = await readJson(request, ZCreateStaffCodeBodySchema);
      const code = await createStaffCode({
        tenantId: principal.tenantId,
        roomId,
        ...body,
        actor: apiKeyActor(principal),
      });
      return json({ data: code }, { status: 201, requestId });
    },
  },
  {
    method: 'GET',
    path: '/rooms/{id}/ical-url',
    idKind: 'room',
    summary:
      'The secret URL of the room’s busy periods as an RFC 5545 feed (“Reserved” events, no guest data) for Airbnb, Booking.com and other channels to import',
    success: { status: 200, description: 'The feed URL', schema: dataOf(ZIcalUrlSchema) },
    errors: ['not_found'],
    handler: async ({ principal, requestId }, { id }) =>
      json({ data: await roomIcalUrl({ tenantId: principal.tenantId, roomId: pathId(id) }) }, { requestId }),
  },
  {
    method: 'POST',
    path: '/rooms/{id}/ical-url/rotate',
    idKind: 'room',
    summary: 'A new secret URL for the room’s feed: the old one stops working at once; audited room.ical_url_rotated',
    success: { status: 200, description: 'The new feed URL', schema: dataOf(ZIcalUrlSchema) },
    errors: ['not_found'],
    handler: async ({ principal, requestId }, { id }) =>
      json(
        {
          data: await rotateRoomIcalUrl({
            tenantId: principal.tenantId,
            roomId: pathId(id),
            actor: apiKeyActor(principal),
          }),
        },
        { requestId },
      ),
  },
  ...icalFeedRoutes('room'),
  ...icalFeedRoutes('room_type'),
  {
    method: 'DELETE',
    path: '/guests/{id}',
    idKind: 'guest',
    summary: 'Delete a guest’s personal data; reservations and audit events remain',
    success: { status: 204, description: 'Deleted' },
    errors: ['not_found'],
    handler: async ({ principal }, { id }) => {
      await deleteGuest({ tenantId: principal.tenantId, guestId: pathId(id), actor: apiKeyActor(principal) });
      return new Response(null, { status: 204 });
    },
  },
  {
    method: 'GET',
    path: '/audit-events',
    summary: 'The audit trail, newest first',
    query: ZListAuditEventsQuerySchema,
    success: { status: 200, description: 'A page of audit events', schema: listOf(ZAuditEventSchema) },
    errors: ['invalid_request'],
    handler: async ({ principal, request, requestId }) =>
      json(
        await listAuditEvents({ tenantId: principal.tenantId, ...readQuery(request, ZListAuditEventsQuerySchema) }),
        {
          requestId,
        },
      ),
  },
  {
    method: 'GET',
    path: '/api-keys',
    summary: 'API keys of the tenant — never a secret',
    success: { status: 200, description: 'API keys', schema: listOf(ZApiKeySchema) },
    errors: [],
    handler: async ({ principal, requestId }) =>
      json({ data: await listApiKeys({ tenantId: principal.tenantId }), nextCursor: null }, { requestId }),
  },
  {
    method: 'GET',
    path: '/api-keys/{id}',
    idKind: 'api_key',
    summary: 'One API key — never its secret',
    success: { status: 200, description: 'The API key', schema: dataOf(ZApiKeySchema) },
    errors: ['not_found'],
    handler: async ({ principal, requestId }, { id }) =>
      json({ data: await getApiKey({ tenantId: principal.tenantId, apiKeyId: pathId(id) }) }, { requestId }),
  },
  {
    method: 'GET',
    path: '/webhook-events',
    summary: 'The webhook inbox: what arrived and what became of it',
    query: ZListWebhookEventsQuerySchema,
    success: { status: 200, description: 'A page of webhook events', schema: listOf(ZWebhookEventSchema) },
    errors: ['invalid_request'],
    handler: async ({ principal, request, requestId }) =>
      json(
        await listWebhookEvents({ tenantId: principal.tenantId, ...readQuery(request, ZListWebhookEventsQuerySchema) }),
        { requestId },
      ),
  },
];
