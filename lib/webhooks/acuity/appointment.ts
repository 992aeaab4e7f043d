import { z } from 'zod';
import { outboundFetch, UnreachableError } from '../../http/outbound-fetch';
import type { TAcuityCredentials } from '../../secrets/acuity-credentials';

/** What reading one appointment may cost: its time and its size. */
export const ACUITY_LIMITS = { timeoutMs: 10_000, bytes: 256 * 1024 } as const;

/** Acuity's API: ACUITY_API_URL (the operator's: a stand-in locally and in tests), else Acuity's own. */
export function acuityApiUrl(): string {
  return (process.env.ACUITY_API_URL || 'https://acuityscheduling.com').replace(/\/+$/, '');
}

/**
 * Acuity's ISO times carry their offset without a colon (`2026-06-17T10:15:00-0700`), which the
 * standard's Date parsing need not accept: read strictly, an instant or null.
 */
export function parseAcuityDatetime(text: string): Date | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:?\d{2})$/.exec(text.trim());
  if (!match) return null;
  const zone = match[2] === 'Z' ? 'Z' : `${match[2]!.slice(0, 3)}:${match[2]!.slice(-2)}`;
  const date = new Date(`${match[1]}${zone}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

const ZIdSchema = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,20}$/)]).transform(String);
const optionalText = (max: number) => z.string().max(max).nullish().catch(null);

/** The fields of an appointment (`GET /api/v1/appointments/{id}`) processing uses; the rest is ignored. */
export const ZAcuityAppointmentSchema = z
  .object({
    id: ZIdSchema,
    datetime: z.string().max(40),
    endTime: z.string().max(40).nullish(),
    duration: z
      .union([z.number(), z.string().regex(/^\d{1,6}$/)])
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .positive()
          .max(366 * 24 * 60),
      )
      .nullish(),
    appointmentTypeID: ZIdSchema,
    calendarID: ZIdSchema.nullish().catch(null),
    canceled: z.boolean().default(false),
    firstName: optionalText(200),
    lastName: optionalText(200),
    email: optionalText(320),
    phone: optionalText(50),
    timezone: optionalText(100),
  })
  .loose();
export type TAcuityAppointment = z.infer<typeof ZAcuityAppointmentSchema>;

/** The appointment's stay: `datetime` for `duration` minutes (or to `endTime` when that is a full time). */
export function appointmentWindow(appointment: TAcuityAppointment): { startsAt: Date; endsAt: Date } | null {
  const startsAt = parseAcuityDatetime(appointment.datetime);
  if (!startsAt) return null;
  if (appointment.duration) return { startsAt, endsAt: new Date(startsAt.getTime() + appointment.duration * 60_000) };
  const endsAt = appointment.endTime ? parseAcuityDatetime(appointment.endTime) : null;
  return endsAt ? { startsAt, endsAt } : null;
}

/** A read that retrying may fix (Acuity down, slow, refusing the credentials): the worker retries it. */
export class AcuityApiError extends Error {
  constructor(readonly code: 'acuity_unreachable' | 'acuity_unauthorized' | 'acuity_error' | 'acuity_bad_answer') {
    super(`reading the Acuity appointment failed: ${code}`);
    this.name = 'AcuityApiError';
  }
}

/**
 * Reads one appointment's current state with the tenant's credentials (HTTP Basic: user id and API
 * key), within 10 s and 256 KiB, never following a redirect. `not_found` for an appointment Acuity
 * does not have (404); every other failure throws `AcuityApiError` (nothing of the key in it).
 */
export async function fetchAcuityAppointment(
  credentials: TAcuityCredentials,
  appointmentId: string,
): Promise<{ status: 'ok'; appointment: TAcuityAppointment } | { status: 'not_found' }> {
  const fetcher = outboundFetch({ allowPrivate: true, maxBytes: ACUITY_LIMITS.bytes });
  const authorization = `Basic ${Buffer.from(`${credentials.userId}:${credentials.apiKey}`).toString('base64')}`;
  let response: Response;
  try {
    response = await fetcher(`${acuityApiUrl()}/api/v1/appointments/${encodeURIComponent(appointmentId)}`, {
      headers: { authorization, accept: 'application/json', 'user-agent': 'UnlockOS/1.0' },
      signal: AbortSignal.timeout(ACUITY_LIMITS.timeoutMs),
    });
  } catch (error) {
    if (error instanceof UnreachableError) throw new AcuityApiError('acuity_unreachable');
    throw error;
  }
  if (response.status === 404) return { status: 'not_found' };
  if (response.status === 401 || response.status === 403) throw new AcuityApiError('acuity_unauthorized');
  if (response.status !== 200) throw new AcuityApiError('acuity_error');
  let json: unknown;
  try {
    json = JSON.parse(await response.text());
  } catch {
    throw new AcuityApiError('acuity_bad_answer');
  }
  const parsed = ZAcuityAppointmentSchema.safeParse(json);
  if (!parsed.success) throw new AcuityApiError('acuity_bad_answer');
  return { status: 'ok', appointment: parsed.data };
}
