import { runStatements, sqlLiteral, statement, type Statement } from '../db/tx';
import type { TPricingRules, TRates } from './pricing';

/** What a guest sees of a published facility (GET /api/public/facilities/{slug}). */
export type PublicFacility = {
  name: string;
  timeZone: string;
  unit: 'night' | 'hour';
  checkInTime: string;
  checkOutTime: string;
  opensAt: string | null;
  closesAt: string | null;
  currency: string;
  payment: 'none' | 'online' | 'at_property';
  termsText: string;
  privacyText: string;
  /** How a guest reaches the property (each null when the manager left it empty). */
  contact: { phone: string | null; email: string | null; address: string | null };
  /** The languages the property offers its guests (`en`, `ja`), the default first. */
  languages: string[];
  roomTypes: {
    id: string;
    name: string;
    description: string;
    capacity: number;
    /** Its photos in order, each at its own address on this site (cached for good: a photo never changes). */
    photos: { url: string; alt: string }[];
  }[];
};

/** The facility behind a slug as the server prices and books it: the public view plus what stays inside. */
export type BookingSite = {
  tenantId: string;
  facilityId: string;
  slug: string;
  stripeAccountId: string | null;
  rules: TPricingRules;
  facility: PublicFacility;
  rates: Map<string, TRates & { name: string }>;
};

type Row = {
  tenant_id: string;
  facility_id: string;
  name: string;
  time_zone: string;
  unit: 'night' | 'hour';
  check_in_time: string;
  check_out_time: string;
  opens_at: string | null;
  closes_at: string | null;
  currency: string;
  payment: 'none' | 'online' | 'at_property';
  terms_text: string;
  privacy_text: string;
  phone: string | null;
  email: string | null;
  address: string | null;
  languages: string[];
  country: string;
  tax_mode: 'included' | 'added';
  tax_rate_bp: number;
  stripe_account_id: string | null;
  room_types: {
    id: string;
    name: string;
    description: string;
    capacity: number;
    weekdayCents: number;
    weekendCents: number | null;
    holidayCents: number | null;
    photos: { id: string; alt: string }[];
  }[];
};

/** Where the booking site of `slug` serves one of its photos (GET /api/public/facilities/{slug}/photos/{id}). */
export function publicPhotoPath(slug: string, photoId: string): string {
  return `/api/public/facilities/${slug}/photos/${photoId}`;
}

const SLUG = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

/** The published facility of `slug` with its room types (cheapest first) and rates, in one statement. */
export function bookingSiteStatement(slug: string): Statement<BookingSite[]> {
  if (!SLUG.test(slug)) return { sql: null, rows: () => [] };
  return statement(
    `select f.tenant_id, f.id as facility_id, f.name, f.time_zone, f.booking_unit as unit,
            to_char(f.check_in_time, 'HH24:MI') as check_in_time, to_char(f.check_out_time, 'HH24:MI') as check_out_time,
            to_char(f.opens_at, 'HH24:MI') as opens_at, to_char(f.closes_at, 'HH24:MI') as closes_at,
            f.currency, f.payment_mode as payment, f.terms_text, f.privacy_text, f.phone, f.email, f.address,
            array(select l from unnest(f.guest_languages) l order by l <> f.default_language, l) as languages, f.country, f.tax_mode, f.tax_rate_bp,
            t.stripe_account_id,
            coalesce((select jsonb_agg(jsonb_build_object('id', rt.id, 'name', rt.name, 'description', rt.description,
                                                          'capacity', rt.capacity, 'weekdayCents', rt.weekday_cents,
                                                          'weekendCents', rt.weekend_cents, 'holidayCents', rt.holiday_cents,
                                                          'photos', coalesce((select jsonb_agg(jsonb_build_object('id', ph.id, 'alt', ph.alt) order by ph.position)
                                                                                from room_type_photos ph
                                                                               where ph.tenant_id = rt.tenant_id and ph.room_type_id = rt.id), '[]'))
                                       order by rt.weekday_cents, rt.name)
                        from room_types rt
                       where rt.tenant_id = f.tenant_id and rt.facility_id = f.id and rt.archived_at is null), '[]') as room_types
       from app_public_facility(${sqlLiteral(slug, 'text')}) p
       join facilities f on f.tenant_id = p.tenant_id and f.id = p.facility_id
       join tenants t on t.id = f.tenant_id`,
    (raw) => {
      const row = raw as Row;
      return {
        tenantId: row.tenant_id,
        facilityId: row.facility_id,
        slug,
        stripeAccountId: row.stripe_account_id,
        rules: {
          unit: row.unit,
          timeZone: row.time_zone,
          country: row.country,
          taxMode: row.tax_mode,
          taxRateBp: row.tax_rate_bp,
        },
        facility: {
          name: row.name,
          timeZone: row.time_zone,
          unit: row.unit,
          checkInTime: row.check_in_time,
          checkOutTime: row.check_out_time,
          opensAt: row.opens_at,
          closesAt: row.closes_at,
          currency: row.currency,
          payment: row.payment,
          termsText: row.terms_text,
          privacyText: row.privacy_text,
          contact: { phone: row.phone, email: row.email, address: row.address },
          languages: row.languages,
          roomTypes: row.room_types.map(({ id, name, description, capacity, photos }) => ({
            id,
            name,
            description,
            capacity,
            photos: photos.map((photo) => ({ url: publicPhotoPath(slug, photo.id), alt: photo.alt })),
          })),
        },
        rates: new Map(
          row.room_types.map((t) => [
            t.id,
            { name: t.name, weekdayCents: t.weekdayCents, weekendCents: t.weekendCents, holidayCents: t.holidayCents },
          ]),
        ),
      };
    },
  );
}

/** The booking site of `slug`, or null for an unknown or unpublished one. */
export async function findBookingSite(slug: string): Promise<BookingSite | null> {
  const [sites] = await runStatements({ role: 'app_service' }, [bookingSiteStatement(slug)]);
  return sites[0] ?? null;
}

/** What a guest sees of the published facility of `slug`, or null (the page answers 404). */
export async function getPublicFacility(slug: string): Promise<PublicFacility | null> {
  return (await findBookingSite(slug))?.facility ?? null;
}
