import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { getPublicFacility } from '../booking-site/public-facility';
import { ZFacilityFormSchema } from './facility-input';
import { publishFacility } from './publish-facility';
import { updateFacility } from './save-facility';

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(() => admin.end());

/** The facility form as a browser posts it (checkboxes as a list). */
const form = (fields: Record<string, unknown> = {}) => ({
  name: 'Harbour House',
  timeZone: 'Asia/Tokyo',
  defaultLanguage: 'en',
  guestLanguages: ['en', 'ja'],
  bookingUnit: 'night',
  checkInTime: '15:00',
  checkOutTime: '10:00',
  keyLeadMinutes: '120',
  earlyCheckInMinutes: '0',
  address: '1-2-3 Minato, Tokyo',
  phone: '+81 3 1234 5678',
  email: 'desk@harbour.example',
  ...fields,
});

describe('a facility’s texts and settings', () => {
  it('refuses an unknown time zone and a default language guests are not offered, by message key', () => {
    const zone = ZFacilityFormSchema.safeParse(form({ timeZone: 'Mars/Olympus_Mons' }));
    expect(zone.success).toBe(false);
    expect(zone.error!.issues).toEqual([
      expect.objectContaining({ path: ['timeZone'], message: 'facilities.error.timeZone' }),
    ]);
    const offered = ZFacilityFormSchema.safeParse(form({ guestLanguages: 'ja' }));
    expect(offered.error!.issues).toEqual([
      expect.objectContaining({ path: ['defaultLanguage'], message: 'facilities.error.defaultNotOffered' }),
    ]);
    const none = ZFacilityFormSchema.safeParse(form({ guestLanguages: '' }));
    expect(none.error!.issues[0]).toMatchObject({
      path: ['guestLanguages'],
      message: 'facilities.error.guestLanguages',
    });
    expect(ZFacilityFormSchema.safeParse(form({ phone: '1'.repeat(51) })).error!.issues[0]).toMatchObject({
      path: ['phone'],
      message: 'facilities.error.tooLong',
    });
  });

  it('holds its lengths and languages in the database too (23514), whatever path writes', async () => {
    const { facilityId } = await createBookableTenant({ rooms: 0 });
    for (const [sql, constraint] of [
      [`update facilities set terms_text = repeat('x', 20001) where id = $1`, 'facilities_terms_text_check'],
      [`update facilities set privacy_text = repeat('x', 20001) where id = $1`, 'facilities_privacy_text_check'],
      [`update facilities set address = repeat('x', 501) where id = $1`, 'facilities_address_check'],
      [`update facilities set phone = repeat('1', 51) where id = $1`, 'facilities_phone_check'],
      [`update facilities set guest_languages = '{en,fr}' where id = $1`, 'facilities_guest_languages_check'],
      [
        `update facilities set guest_languages = '{ja}', default_language = 'en' where id = $1`,
        'facilities_default_language_offered',
      ],
    ] as const)
      await expect(admin.query(sql, [facilityId])).rejects.toMatchObject({ code: '23514', constraint });
  });

  it('saves the contact, languages and zone, and shows them on the public facility (default language first)', async () => {
    const { tenantId, facilityId } = await createBookableTenant({ rooms: 0 });
    const parsed = ZFacilityFormSchema.parse(
      form({ facilityId, timeZone: 'Europe/Paris', defaultLanguage: 'ja', guestLanguages: ['ja', 'en'] }),
    );
    const saved = await updateFacility({ tenantId, facilityId, settings: parsed.settings, actor: TEST_ACTOR });
    expect(saved.changed).toEqual(expect.arrayContaining(['timeZone', 'defaultLanguage', 'address', 'phone', 'email']));
    const { rows } = await admin.query(
      `select time_zone, default_language, guest_languages, phone from facilities where id = $1`,
      [facilityId],
    );
    expect(rows[0]).toEqual({
      time_zone: 'Europe/Paris',
      default_language: 'ja',
      guest_languages: ['en', 'ja'],
      phone: '+81 3 1234 5678',
    });
    const slug = `texts-${facilityId.slice(0, 8)}`;
    await publishFacility({ tenantId, facilityId, slug, actor: TEST_ACTOR });
    expect(await getPublicFacility(slug)).toMatchObject({
      timeZone: 'Europe/Paris',
      contact: { phone: '+81 3 1234 5678', email: 'desk@harbour.example', address: '1-2-3 Minato, Tokyo' },
      languages: ['ja', 'en'],
    });
  });
});
