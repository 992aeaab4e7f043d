import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { signAcuity } from '../../lib/webhooks/acuity/verify';

/** An appointment as the stand-in keeps it (Acuity's field names; `datetime` with its offset as Acuity writes it). */
export type StandinAppointment = {
  id: number;
  datetime: string;
  duration: number;
  appointmentTypeID: number;
  calendarID?: number;
  canceled?: boolean;
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  timezone?: string;
};

/** How the stand-in misbehaves on its next reads (for the worker's retries and limits). */
export type StandinFault = 'none' | 'error' | 'huge';

/**
 * A local stand-in for the part of Acuity's API that processing uses: `GET /api/v1/appointments/{id}`
 * behind HTTP Basic auth (user id and API key), each account seeing only its own appointments, as on
 * Acuity (another account's appointment answers 404). It writes `datetime` as Acuity does, with an
 * offset without a colon, and the end as a clock time (`endTime: "11:15am"`) beside `duration`.
 *
 * For a local install (`npm run acuity-standin`), `POST /_standin/notify` (same Basic auth, JSON
 * `{ action, webhookUrl, appointment }`) stores the appointment and delivers Acuity's signed
 * notification of it to `webhookUrl`, as Acuity would.
 */
export async function startAcuityStandin(options: { port?: number; host?: string } = {}): Promise<{
  url: string;
  /** The accounts it accepts: user id → API key. */
  addAccount: (userId: string, apiKey: string) => void;
  /** Creates or replaces an appointment of an account. */
  put: (userId: string, appointment: StandinAppointment) => void;
  get: (userId: string, id: number) => StandinAppointment | undefined;
  remove: (userId: string, id: number) => void;
  fault: (fault: StandinFault) => void;
  /** Reads answered so far (path and user id; never the key). */
  reads: { path: string; userId: string | null; status: number }[];
  close: () => Promise<void>;
}> {
  const accounts = new Map<string, string>();
  const appointments = new Map<string, Map<number, StandinAppointment>>();
  const reads: { path: string; userId: string | null; status: number }[] = [];
  let fault: StandinFault = 'none';

  const authenticate = (header: string | undefined): string | null => {
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
    if (!match) return null;
    const [userId, ...rest] = Buffer.from(match[1]!, 'base64').toString('utf8').split(':');
    const given = Buffer.from(rest.join(':'));
    const expected = Buffer.from(accounts.get(userId ?? '') ?? '');
    return expected.length > 0 && given.length === expected.length && timingSafeEqual(given, expected) ? userId! : null;
  };

  const put = (userId: string, appointment: StandinAppointment) => {
    if (!appointments.has(userId)) appointments.set(userId, new Map());
    appointments.get(userId)!.set(appointment.id, { ...appointment });
  };

  const notify = async (userId: string, raw: string): Promise<number> => {
    const input = JSON.parse(raw) as { action: string; webhookUrl: string; appointment: StandinAppointment };
    put(userId, input.appointment);
    const form = new URLSearchParams({
      action: input.action,
      id: String(input.appointment.id),
      calendarID: String(input.appointment.calendarID ?? 1),
      appointmentTypeID: String(input.appointment.appointmentTypeID),
    }).toString();
    const response = await fetch(input.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-acuity-signature': signAcuity(form, accounts.get(userId)!),
      },
      body: form,
    });
    return response.status;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const send = (status: number, body: unknown, userId: string | null) => {
      reads.push({ path: req.url ?? '', userId, status });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const userId = authenticate(req.headers.authorization);
    if (!userId) return send(401, { status_code: 401, message: 'Unauthorized', error: 'unauthorized' }, null);
    if (req.method === 'POST' && req.url === '/_standin/notify') {
      req.on('end', () => {
        notify(userId, Buffer.concat(chunks).toString('utf8')).then(
          (status) => send(200, { delivered: status }, userId),
          (error: Error) => send(400, { message: error.message }, userId),
        );
      });
      return;
    }
    const match = req.method === 'GET' ? /^\/api\/v1\/appointments\/(\d+)$/.exec(req.url ?? '') : null;
    if (!match) return send(404, { status_code: 404, message: 'Not found', error: 'not_found' }, userId);
    if (fault === 'error') return send(503, { status_code: 503, message: 'Unavailable' }, userId);
    if (fault === 'huge') return send(200, { id: Number(match[1]), padding: 'x'.repeat(1024 * 1024) }, userId);
    const appointment = appointments.get(userId)?.get(Number(match[1]));
    if (!appointment) return send(404, { status_code: 404, message: 'Not found', error: 'not_found' }, userId);
    send(200, asAcuity(appointment), userId);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    addAccount: (userId, apiKey) => void accounts.set(userId, apiKey),
    put,
    get: (userId, id) => appointments.get(userId)?.get(id),
    remove: (userId, id) => void appointments.get(userId)?.delete(id),
    fault: (next) => {
      fault = next;
    },
    reads,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An instant as Acuity writes it: local time in the appointment's zone (UTC here) and `+0000`. */
export function acuityDatetime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+0000`;
}

function clock(date: Date): string {
  const hours = date.getUTCHours();
  return `${hours % 12 || 12}:${String(date.getUTCMinutes()).padStart(2, '0')}${hours < 12 ? 'am' : 'pm'}`;
}

function asAcuity(a: StandinAppointment) {
  const start = new Date(`${a.datetime.slice(0, 19)}Z`);
  const end = new Date(start.getTime() + a.duration * 60_000);
  return {
    id: a.id,
    firstName: a.firstName ?? '',
    lastName: a.lastName ?? '',
    phone: a.phone ?? '',
    email: a.email ?? '',
    date: start.toUTCString().slice(0, 16),
    time: clock(start),
    endTime: clock(end),
    datetime: a.datetime,
    duration: String(a.duration),
    type: 'Stay',
    appointmentTypeID: a.appointmentTypeID,
    calendar: 'Front desk',
    calendarID: a.calendarID ?? 1,
    canceled: a.canceled ?? false,
    timezone: a.timezone ?? 'UTC',
    price: '0.00',
    paid: 'no',
    forms: [],
  };
}
