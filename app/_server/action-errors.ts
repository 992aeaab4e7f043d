import 'server-only';
import type { AppErrorCode } from '@/lib/errors';
import type { MessageKey } from '@/lib/i18n/catalog';

/** Every server action by name: the name keys its messages below and its log line. */
export const ACTION_NAMES = [
  'checkIn',
  'revealPin',
  'revokeKey',
  'rotateGuestLink',
  'deleteGuest',
  'bookGroup',
  'createApiKey',
  'revokeApiKey',
  'setProviderSecret',
  'resolveIncident',
  'replayWebhooks',
  'resyncLock',
  'importLocks',
  'addRoomLock',
  'switchTenant',
  'saveFacility',
  'saveRoom',
  'archiveRoom',
  'addBookingSource',
  'removeBookingSource',
  'createMember',
  'changeMemberRole',
  'setMemberActive',
  'unlockMember',
  // Stay changes (app/desk/stay-actions.ts).
  'checkOut',
  'moveStay',
  'changeStayDates',
  'noShow',
  'reissueKey',
  'issueNewKey',
  'createStaffCode',
  'resendLink',
  // Locks that recover (issue 28, item 11).
  'acknowledgeDrift',
] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

type Messages = { default?: MessageKey } & Partial<Record<ActionName, MessageKey>>;

/**
 * The one map from an AppError code to what the person at the form reads, per action where the
 * action has its own words (`default` otherwise). `invalid_request` is input the schema refused
 * without a message of its own (a malformed id reads as "no longer exists"). A code with no
 * entry for the action reads as that action's `internal` message: "Couldn't …. Try again."
 */
export const ACTION_ERROR_MESSAGES: Partial<Record<AppErrorCode, Messages>> & {
  internal: Record<ActionName, MessageKey>;
} = {
  invalid_request: {
    checkIn: 'checkIn.notFound',
    revealPin: 'key.reveal.notFound',
    revokeKey: 'key.revoke.notFound',
    rotateGuestLink: 'checkIn.notFound',
    deleteGuest: 'guestDelete.notFound',
    bookGroup: 'bookingForm.error.window',
    createApiKey: 'apiKeys.create.nameRequired',
    revokeApiKey: 'apiKeys.revoke.notFound',
    setProviderSecret: 'secrets.valueRequired',
    resolveIncident: 'incidents.resolve.error',
    replayWebhooks: 'webhooks.replay.error',
    resyncLock: 'locks.resync.notFound',
    addRoomLock: 'locks.addDoor.notFound',
    archiveRoom: 'rooms.notFound',
    removeBookingSource: 'bookingSources.notFound',
    changeMemberRole: 'staff.notFound',
    setMemberActive: 'staff.notFound',
    unlockMember: 'staff.notFound',
    moveStay: 'stay.error.invalid',
    changeStayDates: 'stay.error.invalid',
    createStaffCode: 'staffCodes.error.invalid',
    acknowledgeDrift: 'incidents.acknowledge.notFound',
  },
  forbidden: { default: 'forbidden.body' },
  not_found: {
    checkIn: 'checkIn.notFound',
    revealPin: 'key.reveal.notFound',
    revokeKey: 'key.revoke.notFound',
    rotateGuestLink: 'checkIn.notFound',
    deleteGuest: 'guestDelete.notFound',
    resendLink: 'messages.notFound',
    bookGroup: 'bookingForm.error.roomsNotFound',
    revokeApiKey: 'apiKeys.revoke.notFound',
    resyncLock: 'locks.resync.notFound',
    addRoomLock: 'locks.addDoor.notFound',
    saveFacility: 'facilities.notFound',
    saveRoom: 'rooms.notFound',
    archiveRoom: 'rooms.notFound',
    addBookingSource: 'bookingSources.roomNotFound',
    removeBookingSource: 'bookingSources.notFound',
    changeMemberRole: 'staff.notFound',
    setMemberActive: 'staff.notFound',
    unlockMember: 'staff.notFound',
    checkOut: 'stay.error.notFound',
    moveStay: 'stay.error.notFound',
    changeStayDates: 'stay.error.notFound',
    noShow: 'stay.error.notFound',
    reissueKey: 'stay.error.notFound',
    issueNewKey: 'stay.error.notFound',
    createStaffCode: 'staffCodes.error.notFound',
    acknowledgeDrift: 'incidents.acknowledge.notFound',
  },
  conflict: {
    saveRoom: 'rooms.error.labelTaken',
    archiveRoom: 'rooms.archive.hasStays',
    createMember: 'staff.create.alreadyMember',
    addBookingSource: 'bookingSources.roomArchived',
  },
  last_manager: { changeMemberRole: 'staff.lastManager', setMemberActive: 'staff.lastManager' },
  reservation_not_ready: {
    checkOut: 'stay.error.notCheckedIn',
    checkIn: 'checkIn.notReady',
    rotateGuestLink: 'reservation.guestLink.rotateNotAllowed',
    resendLink: 'messages.notReady',
  },
  too_early: { checkIn: 'checkIn.tooEarly' },
  room_unavailable: {
    checkIn: 'checkIn.occupied',
    bookGroup: 'bookingForm.conflict',
    moveStay: 'stay.error.roomTaken',
    changeStayDates: 'stay.error.datesTaken',
    createStaffCode: 'staffCodes.error.archived',
  },
  illegal_transition: {
    revealPin: 'key.reveal.ended',
    revokeKey: 'key.revoke.illegal',
    checkOut: 'stay.error.illegal',
    moveStay: 'stay.error.illegal',
    changeStayDates: 'stay.error.illegal',
    noShow: 'stay.error.illegal',
    reissueKey: 'stay.error.reissueIllegal',
    issueNewKey: 'stay.error.illegal',
  },
  data_key_mismatch: { setProviderSecret: 'secrets.dataKeyMissing' },
  unavailable: { resyncLock: 'locks.resync.unavailable', importLocks: 'locks.import.unavailable' },
  internal: {
    checkIn: 'checkIn.error',
    revealPin: 'key.reveal.error',
    revokeKey: 'key.revoke.error',
    rotateGuestLink: 'reservation.guestLink.rotateError',
    deleteGuest: 'guestDelete.error',
    bookGroup: 'bookingForm.error.generic',
    createApiKey: 'apiKeys.create.error',
    revokeApiKey: 'apiKeys.revoke.error',
    setProviderSecret: 'secrets.error',
    resolveIncident: 'incidents.resolve.error',
    replayWebhooks: 'webhooks.replay.error',
    resyncLock: 'locks.resync.error',
    importLocks: 'locks.import.error',
    addRoomLock: 'locks.addDoor.error',
    switchTenant: 'forbidden.body',
    saveFacility: 'facilities.error.generic',
    saveRoom: 'rooms.error.generic',
    archiveRoom: 'rooms.archive.error',
    addBookingSource: 'bookingSources.error',
    removeBookingSource: 'bookingSources.error',
    createMember: 'staff.create.error',
    changeMemberRole: 'staff.error',
    setMemberActive: 'staff.error',
    unlockMember: 'staff.error',
    checkOut: 'stay.error.generic',
    moveStay: 'stay.error.generic',
    changeStayDates: 'stay.error.generic',
    noShow: 'stay.error.generic',
    reissueKey: 'stay.error.generic',
    issueNewKey: 'stay.error.generic',
    createStaffCode: 'staffCodes.error.generic',
    resendLink: 'messages.error',
    acknowledgeDrift: 'incidents.acknowledge.error',
  },
};

/** The message key an action shows for an error code. */
export function actionErrorMessage(action: ActionName, code: AppErrorCode): MessageKey {
  const entry = ACTION_ERROR_MESSAGES[code];
  return entry?.[action] ?? entry?.default ?? ACTION_ERROR_MESSAGES.internal[action];
}
