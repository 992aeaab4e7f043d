import { runStatements, sqlLiteral, statement, withTenant, type Scope } from '../db/tx';
import { AppError } from '../errors';
import { keyringJson } from './guest-register';

/**
 * Who reads the register: a manager (their tenant and user: PostgreSQL checks the membership itself), or one of the
 * tenant's API keys, which acts for the tenant's management (decision 034; PostgreSQL checks the key is live).
 */
export type RegisterReader = { tenantId: string } & ({ userId: string } | { apiKeyId: string });

/** The transaction scope of a register reading: the tenant, and the manager or the API key it is read for. */
export function registerReaderScope(reader: RegisterReader): Scope {
  return 'userId' in reader
    ? { role: 'app_authenticated', tenantId: reader.tenantId, userId: reader.userId }
    : { role: 'app_authenticated', tenantId: reader.tenantId, apiKeyId: reader.apiKeyId };
}

/** What the register holds of one guest, as its readers (a manager, the tenant's API key) see it. */
export type RegisterGuestFields = {
  position: number;
  name: string;
  address: string;
  addressInJapan: boolean;
  nationality: string;
  occupation: string | null;
  passportNumber: string | null;
  retainUntil: Date;
};

export type RegisterGuest = RegisterGuestFields & { registrationId: string; hasPassportImage: boolean };

/** A guest's fields from a row that has one (`registration_id` not null). */
export function registerGuestFields(row: RegisterGuestColumns): RegisterGuestFields {
  return {
    position: row.guest_position!,
    name: row.name!,
    address: row.address!,
    addressInJapan: row.address_in_japan!,
    nationality: row.nationality!,
    occupation: row.occupation,
    passportNumber: row.passport_number,
    retainUntil: new Date(row.retain_until!),
  };
}

/** One stay arriving on the day, with its register's guests (none yet: an empty list, `complete` false). */
export type RegisterStay = {
  reservationId: string;
  roomLabel: string;
  startsAt: Date;
  endsAt: Date;
  status: string;
  complete: boolean;
  guests: RegisterGuest[];
};

/** A register guest's columns as the register's functions return them: all null on a stay's row without a guest. */
export type RegisterGuestColumns = {
  registration_id: string | null;
  guest_position: number | null;
  name: string | null;
  address: string | null;
  address_in_japan: boolean | null;
  nationality: string | null;
  occupation: string | null;
  passport_number: string | null;
  retain_until: Date | null;
};

type Row = RegisterGuestColumns & {
  reservation_id: string;
  room_label: string;
  starts_at: Date;
  ends_at: Date;
  status: string;
  has_passport_image: boolean | null;
  complete: boolean;
};

/** The facilities of a tenant that keep a register (`registration = 'jp'`), for the page's picker. */
export async function registerFacilities(tenantId: string): Promise<{ id: string; name: string; timeZone: string }[]> {
  return withTenant({ tenantId }, (tx) =>
    tx.facility.findMany({
      where: { tenantId, registration: 'jp' },
      select: { id: true, name: true, timeZone: true },
      orderBy: { name: 'asc' },
    }),
  );
}

/**
 * A facility's register for the stays arriving on `day` (YYYY-MM-DD, in the facility's zone), its
 * passport numbers decrypted: read through `app_register_rows`, which refuses (42501) anyone but an
 * active manager of the tenant and audits the reading (`registration.viewed`, or `.exported` for the
 * CSV) in the same transaction.
 */
export async function readRegisterDay(
  reader: RegisterReader,
  input: { facilityId: string; day: string; purpose: 'viewed' | 'exported' },
): Promise<RegisterStay[]> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.day) || Number.isNaN(Date.parse(`${input.day}T00:00:00Z`)))
    throw new AppError('invalid_request', 'The day must be a date (YYYY-MM-DD).', {
      issues: [{ path: 'day', message: 'must be YYYY-MM-DD', code: 'invalid_format' }],
    });
  const t = sqlLiteral(reader.tenantId, 'uuid');
  const f = sqlLiteral(input.facilityId, 'uuid');
  const d = sqlLiteral(input.day, 'date');
  // The day's bounds in the facility's own zone, in the same statement.
  const zone = `(select time_zone from facilities where tenant_id = ${t} and id = ${f})`;
  const [rows] = await runStatements(registerReaderScope(reader), [
    statement<Row>(`select * from app_register_rows(${t}, ${f}, (${d}::timestamp at time zone ${zone}),
      ((${d} + 1)::timestamp at time zone ${zone}), ${sqlLiteral(keyringJson(), 'jsonb')},
      ${sqlLiteral(input.purpose, 'text')})`),
  ]);
  const stays: RegisterStay[] = [];
  for (const row of rows) {
    let stay = stays.at(-1);
    if (stay?.reservationId !== row.reservation_id) {
      stay = {
        reservationId: row.reservation_id,
        roomLabel: row.room_label,
        startsAt: new Date(row.starts_at),
        endsAt: new Date(row.ends_at),
        status: row.status,
        complete: row.complete,
        guests: [],
      };
      stays.push(stay);
    }
    if (row.registration_id)
      stay.guests.push({
        registrationId: row.registration_id,
        ...registerGuestFields(row),
        hasPassportImage: row.has_passport_image === true,
      });
  }
  return stays;
}

/**
 * One guest's passport image, decrypted, for a manager or the tenant's API key; audited `registration.viewed` in the
 * read's transaction.
 */
export async function readPassportImage(
  reader: RegisterReader,
  registrationId: string,
): Promise<{ bytes: Buffer; type: 'image/jpeg' | 'image/png' }> {
  const [rows] = await runStatements(registerReaderScope(reader), [
    statement<{ image: Buffer; image_type: 'image/jpeg' | 'image/png' }>(
      `select image, image_type from app_register_passport_image(${sqlLiteral(reader.tenantId, 'uuid')},
        ${sqlLiteral(registrationId, 'uuid')}, ${sqlLiteral(keyringJson(), 'jsonb')})`,
    ),
  ]);
  const row = rows[0];
  if (!row) throw new AppError('not_found', 'No such passport image.');
  return { bytes: Buffer.from(row.image), type: row.image_type };
}

/** A CSV cell: quoted, and a leading formula character defused so a spreadsheet shows it as text. */
function cell(value: string | number | boolean | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export const REGISTER_CSV_HEADER = [
  'arrival',
  'departure',
  'room',
  'guest',
  'name',
  'address',
  'address_in_japan',
  'nationality',
  'occupation',
  'passport_number',
  'passport_image',
] as const;

/** The day's register as CSV (UTF-8 with a BOM, so spreadsheet software reads Japanese right), one line per guest. */
export function registerCsv(stays: RegisterStay[]): string {
  const lines = [REGISTER_CSV_HEADER.map(cell).join(',')];
  for (const stay of stays) {
    for (const g of stay.guests)
      lines.push(
        [
          stay.startsAt.toISOString(),
          stay.endsAt.toISOString(),
          stay.roomLabel,
          g.position,
          g.name,
          g.address,
          g.addressInJapan,
          g.nationality,
          g.occupation,
          g.passportNumber,
          g.hasPassportImage,
        ]
          .map(cell)
          .join(','),
      );
    if (stay.guests.length === 0)
      lines.push(
        [stay.startsAt.toISOString(), stay.endsAt.toISOString(), stay.roomLabel, 0, 'MISSING'].map(cell).join(','),
      );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
