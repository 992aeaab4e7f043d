import { z } from 'zod';
import { createApiKey } from '../../lib/auth/api-keys';
import { ROLES } from '../../lib/auth/permissions';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../lib/auth/password';
import { unlockUser } from '../../lib/auth/sign-in';
import { listCaughtAccountMail } from '../../lib/messages/list-caught-mail';
import { rotateProviderSecrets, SECRET_PROVIDERS, setProviderSecret } from '../../lib/secrets/provider-secrets';
import { rotateGuestRegisters } from '../../lib/registration/rotate-registers';
import { seedDemo } from '../seed/seed-demo';
import { ZTimestampSchema } from '../../lib/api/schemas';
import { addBookingSource, normaliseEventType } from '../../lib/bookings/booking-sources';
import { addIcalFeed, ZIcalFeedInputSchema } from '../../lib/ical/feeds';
import { addRoomLock, assignLockDevice, setLockProvider, syncLocks } from '../../lib/locks/locks';
import { replayWebhookEvents } from '../../lib/webhooks/replay';
import { createFacility } from '../../lib/facilities/create-facility';
import { createRoom } from '../../lib/rooms/create-room';
import { createStaffUser } from '../../lib/staff/create-staff-user';
import { createTenant } from '../../lib/staff/create-tenant';
import { isTimeZone } from '../../lib/facilities/time-zones';
import { CHECK_IN_MODES, PAYMENT_MODES, REGISTRATION_MODES, SLUG_PATTERN } from '../../lib/facilities/facility-options';
import { publishFacility } from '../../lib/facilities/publish-facility';
import { updateFacilityOptions } from '../../lib/facilities/update-facility-options';
import { MAX_PRICE_CENTS } from '../../lib/room-types/room-type-input';
import { createRoomType } from '../../lib/room-types/save-room-type';
import { WEBHOOK_PROVIDERS } from '../../lib/webhooks/webhook-log-filters';

const uuid = z.uuid();
const CLI_ACTOR = { type: 'system' as const, id: null, label: 'cli' };

export type CliCommand = {
  flags: z.ZodObject;
  /** Runs with the database open and APP_DATABASE_URL set. */
  run: (flags: never) => Promise<unknown>;
};

function command<S extends z.ZodObject>(flags: S, run: (flags: z.infer<S>) => Promise<unknown>): CliCommand {
  return { flags, run: run as (flags: never) => Promise<unknown> };
}

/** The CLI of API.md, except `migrate`, which the entry point runs itself. Each prints one JSON object. */
export const COMMANDS: Record<string, CliCommand> = {
  'seed-demo': command(z.object({}).strict(), () => seedDemo()),
  'tenant-create': command(
    z
      .object({
        name: z.string().trim().min(1).max(200),
        'stripe-account': z
          .string()
          .regex(/^acct_[A-Za-z0-9]+$/, 'must look like acct_…')
          .optional(),
      })
      .strict(),
    (f) => createTenant({ name: f.name, stripeAccountId: f['stripe-account'] }),
  ),
  'facility-create': command(
    z
      .object({
        tenant: uuid,
        name: z.string().trim().min(1).max(200),
        // API.md's `[--timezone Asia/Tokyo]`, as the manager's facility form and sign-up default to.
        timezone: z.string().refine(isTimeZone, 'must be an IANA time zone').default('Asia/Tokyo'),
        'key-lead-minutes': z.coerce.number().int().min(0).max(10080).optional(),
        'early-check-in-minutes': z.coerce.number().int().min(0).max(1440).optional(),
      })
      .strict(),
    (f) =>
      createFacility({
        tenantId: f.tenant,
        name: f.name,
        timeZone: f.timezone,
        keyLeadMinutes: f['key-lead-minutes'],
        earlyCheckInMinutes: f['early-check-in-minutes'],
        actor: CLI_ACTOR,
      }),
  ),
  'room-create': command(
    z
      .object({
        tenant: uuid,
        facility: uuid,
        label: z.string().trim().min(1).max(100),
        'lock-device': z.string().min(1).max(200).optional(),
        'room-type': uuid.optional(),
      })
      .strict(),
    (f) =>
      createRoom({
        tenantId: f.tenant,
        facilityId: f.facility,
        label: f.label,
        lockDeviceRef: f['lock-device'],
        roomTypeId: f['room-type'],
        actor: CLI_ACTOR,
      }),
  ),
  'room-type-create': command(
    z
      .object({
        tenant: uuid,
        facility: uuid,
        name: z.string().trim().min(1).max(80),
        capacity: z.coerce.number().int().min(1).max(50).default(2),
        'rate-cents': z.coerce.number().int().min(0).max(MAX_PRICE_CENTS).default(10000),
      })
      .strict(),
    (f) =>
      createRoomType({
        tenantId: f.tenant,
        facilityId: f.facility,
        settings: {
          name: f.name,
          description: '',
          capacity: f.capacity,
          weekdayCents: f['rate-cents'],
          weekendCents: null,
          holidayCents: null,
        },
        actor: CLI_ACTOR,
      }),
  ),
  'facility-update': command(
    z
      .object({
        tenant: uuid,
        facility: uuid,
        'check-in': z.enum(CHECK_IN_MODES).optional(),
        'self-check-in-opens-hours': z.coerce.number().int().min(0).max(168).optional(),
        registration: z.enum(REGISTRATION_MODES).optional(),
        payment: z.enum(PAYMENT_MODES).optional(),
      })
      .strict(),
    async (f) => {
      const { id } = await updateFacilityOptions({
        tenantId: f.tenant,
        facilityId: f.facility,
        options: {
          checkInMode: f['check-in'],
          selfCheckInOpensHours: f['self-check-in-opens-hours'],
          registration: f.registration,
          paymentMode: f.payment,
        },
        actor: CLI_ACTOR,
      });
      return { id };
    },
  ),
  'facility-publish': command(
    z
      .object({
        tenant: uuid,
        facility: uuid,
        slug: z.string().regex(SLUG_PATTERN, 'must be 3–63 characters of a-z, 0-9 and inner hyphens'),
      })
      .strict(),
    async (f) => {
      const { slug, url } = await publishFacility({
        tenantId: f.tenant,
        facilityId: f.facility,
        slug: f.slug,
        actor: CLI_ACTOR,
      });
      return { slug, url };
    },
  ),
  'user-create': command(
    z
      .object({
        tenant: uuid,
        email: z.email(),
        password: z
          .string()
          .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
          .max(PASSWORD_MAX_LENGTH),
        role: z.enum(ROLES),
      })
      .strict(),
    async (f) => {
      const { id } = await createStaffUser({
        tenantId: f.tenant,
        email: f.email,
        password: f.password,
        role: f.role,
        actor: CLI_ACTOR,
      });
      return { id };
    },
  ),
  'user-unlock': command(z.object({ email: z.email() }).strict(), (f) => unlockUser({ email: f.email })),
  // Without SMTP_URL, invitations and reset links are caught locally, for no tenant to read: the operator reads them here.
  'account-mail': command(z.object({ email: z.email() }).strict(), async (f) => ({
    mails: await listCaughtAccountMail({ email: f.email }),
  })),
  'api-key-create': command(z.object({ tenant: uuid, name: z.string().trim().min(1).max(100) }).strict(), async (f) => {
    const created = await createApiKey({ tenantId: f.tenant, name: f.name, actor: CLI_ACTOR });
    return { id: created.id, key: created.key };
  }),
  'secret-set': command(
    z.object({ tenant: uuid, provider: z.enum(SECRET_PROVIDERS), value: z.string().min(1).max(4096) }).strict(),
    (f) => setProviderSecret({ tenantId: f.tenant, provider: f.provider, value: f.value, actor: CLI_ACTOR }),
  ),
  'lock-provider-set': command(
    z.object({ tenant: uuid, provider: z.enum(['simulator', 'seam', 'ttlock']) }).strict(),
    (f) => setLockProvider({ tenantId: f.tenant, provider: f.provider, actor: CLI_ACTOR }),
  ),
  'locks-sync': command(z.object({ tenant: uuid }).strict(), (f) =>
    syncLocks({ tenantId: f.tenant, actor: CLI_ACTOR }),
  ),
  'lock-assign': command(z.object({ tenant: uuid, device: z.string().trim().min(1).max(200) }).strict(), (f) =>
    assignLockDevice({ tenantId: f.tenant, deviceId: f.device, actor: CLI_ACTOR }),
  ),
  'room-lock-add': command(
    z.object({ tenant: uuid, room: uuid, lock: uuid, role: z.enum(['room', 'entrance', 'other']).optional() }).strict(),
    (f) => addRoomLock({ tenantId: f.tenant, roomId: f.room, lockId: f.lock, role: f.role, actor: CLI_ACTOR }),
  ),
  // Provider secrets and the guest registers' passport data, each in its own all-or-nothing transaction.
  'secrets-rotate': command(z.object({}).strict(), async () => ({
    ...(await rotateProviderSecrets({ actor: CLI_ACTOR })),
    guestRegisterRows: (await rotateGuestRegisters({ actor: CLI_ACTOR })).rotated,
  })),
  'booking-source-add': command(
    z
      .object({
        tenant: uuid,
        provider: z.enum(['calendly', 'cal', 'acuity']),
        'event-type': z.string().trim().min(1).max(500),
        room: uuid.optional(),
        'room-type': uuid.optional(),
      })
      .strict()
      .refine((f) => (f.room === undefined) !== (f['room-type'] === undefined), {
        message: 'give --room or --room-type, not both',
        path: ['room'],
      })
      // As the provider's webhooks name it (a Calendly id completed to its URI; Cal.com and Acuity: a number).
      .refine((f) => normaliseEventType(f.provider, f['event-type']) !== null, {
        message: 'not an event type of that provider (Calendly: URI or id; Cal.com, Acuity: a number)',
        path: ['event-type'],
      }),
    (f) =>
      addBookingSource({
        tenantId: f.tenant,
        provider: f.provider,
        eventType: normaliseEventType(f.provider, f['event-type'])!,
        roomId: f.room,
        roomTypeId: f['room-type'],
        actor: CLI_ACTOR,
      }),
  ),
  'webhooks-replay': command(
    z
      .object({
        provider: z.enum(WEBHOOK_PROVIDERS),
        tenant: uuid.optional(),
        from: ZTimestampSchema,
        to: ZTimestampSchema,
      })
      .strict()
      .refine((f) => !(f.from instanceof Date) || !(f.to instanceof Date) || f.to > f.from, {
        message: '--to must be after --from',
        path: ['to'],
      }),
    (f) => replayWebhookEvents({ provider: f.provider, tenantId: f.tenant, from: f.from, to: f.to, actor: CLI_ACTOR }),
  ),
  'ical-feed-add': command(
    z
      .object({
        tenant: uuid,
        room: uuid.optional(),
        'room-type': uuid.optional(),
        url: ZIcalFeedInputSchema.shape.url,
        channel: ZIcalFeedInputSchema.shape.channel,
      })
      .strict()
      .refine((f) => (f.room === undefined) !== (f['room-type'] === undefined), {
        message: 'give --room or --room-type, not both',
        path: ['room'],
      }),
    async (f) => {
      const { id } = await addIcalFeed({
        tenantId: f.tenant,
        url: f.url,
        channel: f.channel,
        actor: CLI_ACTOR,
        ...(f.room ? { roomId: f.room } : { roomTypeId: f['room-type']! }),
      });
      return { id };
    },
  ),
};
