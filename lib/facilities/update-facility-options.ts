import type { Actor } from '../audit/actor';
import { changesOf } from '../audit/changes';
import { writeAuditEvent } from '../audit/write-audit-event';
import { withoutUndefined } from './create-facility';
import { appBaseUrl } from '../auth/guest-links';
import { asService, withTenant } from '../db/tx';
import { AppError } from '../errors';
import type { FacilityOptions } from './facility-options';

const OPTIONS_SELECT = {
  currency: true,
  country: true,
  taxMode: true,
  taxRateBp: true,
  paymentMode: true,
  checkInMode: true,
  selfCheckInOpensHours: true,
  registration: true,
  termsText: true,
  privacyText: true,
} as const;

/** The public address of a facility's booking site. */
export function bookingSiteUrl(slug: string): string {
  return `${appBaseUrl()}/b/${slug}`;
}

/**
 * Changes the given options of one of the tenant's facilities (those left out keep their value) in
 * one transaction, audited `facility.updated` with the names of those that changed (never the texts
 * themselves); another tenant's facility is `not_found`. The table's checks have the last word. Given
 * a payment mode, the facility records that its payment was chosen (`payment_chosen_at`).
 */
export async function updateFacilityOptions(input: {
  tenantId: string;
  facilityId: string;
  options: Partial<FacilityOptions>;
  actor: Actor;
}): Promise<{ id: string; changed: string[] }> {
  const { tenantId, facilityId, actor } = input;
  const options = withoutUndefined(input.options);
  return asService({ tenantId }, async (tx) => {
    const rows = await tx.facility.findMany({
      where: { tenantId, id: facilityId },
      select: { name: true, ...OPTIONS_SELECT },
    });
    if (rows.length !== 1) throw new AppError('not_found', 'No such facility.');
    const before = rows[0]!;
    const { changed } = changesOf(before, options);
    // Saving the payment option is a choice even when it keeps the default (the first-run checklist).
    if (options.paymentMode !== undefined)
      await tx.facility.update({
        where: { tenantId_id: { tenantId, id: facilityId } },
        data: { paymentChosenAt: new Date() },
      });
    if (changed.length > 0) {
      await tx.facility.update({ where: { tenantId_id: { tenantId, id: facilityId } }, data: options });
      await writeAuditEvent(tx, {
        tenantId,
        actor,
        action: 'facility.updated',
        subject: { type: 'facility', id: facilityId },
        metadata: { name: before.name, changed },
      });
    }
    return { id: facilityId, changed };
  });
}

/** A facility's options and booking site: its address, whether it is published, and its URL. */
export type FacilityBookingSite = FacilityOptions & {
  id: string;
  name: string;
  slug: string | null;
  publishedAt: Date | null;
  /** The site's address once published, else null. */
  url: string | null;
};

/** One facility of the tenant with its options and booking site; null for an unknown id or another tenant's. */
export async function getFacilityBookingSite(input: {
  tenantId: string;
  facilityId: string;
}): Promise<FacilityBookingSite | null> {
  return withTenant({ tenantId: input.tenantId }, async (tx) => {
    const rows = await tx.facility.findMany({
      where: { tenantId: input.tenantId, id: input.facilityId },
      select: { id: true, name: true, slug: true, publishedAt: true, ...OPTIONS_SELECT },
    });
    if (rows.length !== 1) return null;
    const row = rows[0]!;
    return { ...row, url: row.slug && row.publishedAt ? bookingSiteUrl(row.slug) : null };
  });
}
