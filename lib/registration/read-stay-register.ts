import { appBaseUrl } from '../auth/guest-links';
import { runStatements, sqlLiteral, statement } from '../db/tx';
import { keyringJson } from './guest-register';
import {
  registerGuestFields,
  registerReaderScope,
  type RegisterGuestColumns,
  type RegisterGuestFields,
  type RegisterReader,
} from './register-day';

/** One guest of a stay's register, as a manager (or the tenant's API key) reads it. */
export type StayRegisterGuest = RegisterGuestFields & {
  /** The register row's id: its passport image is read by it. */
  id: string;
  /** Never the image itself: where to read it (each reading audited), and what it is. */
  passportImage: { type: 'image/jpeg' | 'image/png'; url: string } | null;
};

/** A stay's guest register (`GET /api/v1/reservations/{id}/registration`). */
export type StayRegister = {
  reservationId: string;
  /** The facility's register: `none` keeps none (complete is then true). */
  registration: 'none' | 'jp';
  complete: boolean;
  guests: StayRegisterGuest[];
};

type Row = RegisterGuestColumns & {
  reservation_id: string;
  registration: 'none' | 'jp';
  complete: boolean;
  passport_image_type: 'image/jpeg' | 'image/png' | null;
};

/** Where the API serves one register row's passport image (GET, the same key; each reading audited). */
export function passportImageUrl(registrationId: string): string {
  return `${appBaseUrl()}/api/v1/registrations/${registrationId}/passport-image`;
}

/**
 * One stay's guest register with its passport numbers decrypted, read through `app_register_stay`: PostgreSQL refuses
 * (42501) anyone but an active manager of the tenant or a live API key of it, answers `not_found` for a stay that is
 * not the tenant's, and audits the reading (`registration.viewed`) in the same transaction. Passport images are not
 * in it (megabytes each): a URL per image, read one at a time.
 */
export async function readStayRegister(reader: RegisterReader, reservationId: string): Promise<StayRegister> {
  const [rows] = await runStatements(registerReaderScope(reader), [
    statement<Row>(
      `select * from app_register_stay(${sqlLiteral(reader.tenantId, 'uuid')}, ${sqlLiteral(reservationId, 'uuid')},
        ${sqlLiteral(keyringJson(), 'jsonb')})`,
    ),
  ]);
  const first = rows[0]!;
  return {
    reservationId: first.reservation_id,
    registration: first.registration,
    complete: first.complete,
    guests: rows
      .filter((row) => row.registration_id !== null)
      .map((row) => ({
        id: row.registration_id!,
        ...registerGuestFields(row),
        passportImage: row.passport_image_type
          ? { type: row.passport_image_type, url: passportImageUrl(row.registration_id!) }
          : null,
      })),
  };
}
