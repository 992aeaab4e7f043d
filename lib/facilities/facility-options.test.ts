import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { ZFacilityOptionsFormSchema, percentToBasisPoints } from './facility-options';
import { publishFacility, unpublishFacility } from './publish-facility';
import { getFacilityBookingSite, updateFacilityOptions } from './update-facility-options';

let admin: pg.Client;
let mine: Awaited<ReturnType<typeof createBookableTenant>>;
let theirs: Awaited<ReturnType<typeof createBookableTenant>>;
const tag = `${process.pid}-${Date.now().toString(36)}`;

beforeAll(async () => {
  admin = await adminClient();
  [mine, theirs] = await Promise.all([createBookableTenant({ rooms: 0 }), createBookableTenant({ rooms: 0 })]);
});
afterAll(() => admin.end());

const facilityRow = async (id: string) =>
  (
    await admin.query(
      `select currency, country, tax_mode::text, tax_rate_bp, payment_mode::text, check_in_mode::text,
              self_check_in_opens_hours, registration::text, terms_text, slug, published_at is not null as published
         from facilities where id = $1`,
      [id],
    )
  ).rows[0];

describe('facility options', () => {
  it('keeps the defaults, changes only the options given, audits the names of those that changed', async () => {
    expect(await facilityRow(mine.facilityId)).toMatchObject({
      currency: 'jpy',
      country: 'JP',
      payment_mode: 'none',
      check_in_mode: 'desk',
      self_check_in_opens_hours: 24,
      registration: 'none',
    });
    const result = await updateFacilityOptions({
      tenantId: mine.tenantId,
      facilityId: mine.facilityId,
      options: { checkInMode: 'self', selfCheckInOpensHours: 6, paymentMode: 'at_property', termsText: 'No parties.' },
      actor: TEST_ACTOR,
    });
    expect(result.changed).toEqual(['checkInMode', 'selfCheckInOpensHours', 'paymentMode', 'termsText']);
    expect(await facilityRow(mine.facilityId)).toMatchObject({
      check_in_mode: 'self',
      self_check_in_opens_hours: 6,
      payment_mode: 'at_property',
      registration: 'none',
      terms_text: 'No parties.',
    });
    const { rows } = await admin.query(
      `select metadata from audit_events where subject_id = $1 and action = 'facility.updated'`,
      [mine.facilityId],
    );
    expect(rows.map((r) => r.metadata.changed)).toEqual([result.changed]);
  });

  it('refuses another tenant’s facility (not_found), writing nothing', async () => {
    await expect(
      updateFacilityOptions({
        tenantId: theirs.tenantId,
        facilityId: mine.facilityId,
        options: { paymentMode: 'online' },
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      publishFacility({ tenantId: theirs.tenantId, facilityId: mine.facilityId, slug: `x-${tag}`, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await getFacilityBookingSite({ tenantId: theirs.tenantId, facilityId: mine.facilityId })).toBeNull();
    expect(await facilityRow(mine.facilityId)).toMatchObject({ payment_mode: 'at_property', slug: null });
  });

  it('publishes at a slug unique on the install (slug_taken for another tenant’s), unpublishes, keeps the slug', async () => {
    const slug = `inn-${tag}`;
    const published = await publishFacility({
      tenantId: mine.tenantId,
      facilityId: mine.facilityId,
      slug,
      actor: TEST_ACTOR,
    });
    expect(published).toMatchObject({ slug, url: expect.stringMatching(new RegExp(`/b/${slug}$`)) });
    await expect(
      publishFacility({ tenantId: theirs.tenantId, facilityId: theirs.facilityId, slug, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'slug_taken', message: 'This address is taken.' });
    expect(await facilityRow(theirs.facilityId)).toMatchObject({ slug: null, published: false });
    expect((await admin.query(`select tenant_id from facility_slugs where slug = $1`, [slug])).rows).toEqual([
      { tenant_id: mine.tenantId },
    ]);
    expect(await getFacilityBookingSite({ tenantId: mine.tenantId, facilityId: mine.facilityId })).toMatchObject({
      slug,
      url: published.url,
    });

    await unpublishFacility({ tenantId: mine.tenantId, facilityId: mine.facilityId, actor: TEST_ACTOR });
    expect(await facilityRow(mine.facilityId)).toMatchObject({ slug, published: false });
    expect((await getFacilityBookingSite({ tenantId: mine.tenantId, facilityId: mine.facilityId }))?.url).toBeNull();
    // Moving to a new slug frees the old one.
    await publishFacility({
      tenantId: mine.tenantId,
      facilityId: mine.facilityId,
      slug: `${slug}-2`,
      actor: TEST_ACTOR,
    });
    await publishFacility({ tenantId: theirs.tenantId, facilityId: theirs.facilityId, slug, actor: TEST_ACTOR });
    expect(await facilityRow(theirs.facilityId)).toMatchObject({ slug, published: true });
    const { rows } = await admin.query(
      `select action from audit_events where subject_id = $1 and action like 'facility.%published' order by occurred_at, id`,
      [mine.facilityId],
    );
    expect(rows.map((r) => r.action)).toEqual(['facility.published', 'facility.unpublished', 'facility.published']);
  });

  it('reads the form: tax as a percentage, codes in their case, hours 0–168', () => {
    const parsed = ZFacilityOptionsFormSchema.safeParse({
      facilityId: mine.facilityId,
      currency: 'EUR',
      country: 'fr',
      taxMode: 'added',
      taxRate: '8.5',
      paymentMode: 'online',
      checkInMode: 'self',
      selfCheckInOpensHours: '48',
      registration: 'jp',
    });
    expect(parsed.success && parsed.data.options).toMatchObject({ currency: 'eur', country: 'FR', taxRateBp: 850 });
    expect(percentToBasisPoints('101')).toBeNull();
    const bad = ZFacilityOptionsFormSchema.safeParse({
      facilityId: mine.facilityId,
      currency: 'zz',
      country: 'FRA',
      taxMode: 'added',
      taxRate: '10',
      paymentMode: 'cheque',
      checkInMode: 'self',
      selfCheckInOpensHours: '169',
      registration: 'jp',
    });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.path[0]).sort()).toEqual([
      'country',
      'currency',
      'paymentMode',
      'selfCheckInOpensHours',
    ]);
  });
});
