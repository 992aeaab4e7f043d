import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService } from '../db/tx';
import { AppError } from '../errors';
import { bookingSiteUrl } from './update-facility-options';

/**
 * Publishes one of the tenant's facilities at `/b/{slug}` (or moves it to a new slug): sets its slug
 * and `published_at` (kept when it was published already), audited `facility.published`. A slug any
 * facility of the install holds is `slug_taken` (facility_slugs' primary key decides, nothing is
 * written); another tenant's facility is `not_found`.
 */
export async function publishFacility(input: {
  tenantId: string;
  facilityId: string;
  slug: string;
  actor: Actor;
}): Promise<{ slug: string; url: string; publishedAt: Date }> {
  const { tenantId, facilityId, slug, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const rows = await tx.facility.findMany({
      where: { tenantId, id: facilityId },
      select: { slug: true, publishedAt: true },
    });
    if (rows.length !== 1) throw new AppError('not_found', 'No such facility.');
    const before = rows[0]!;
    const publishedAt = before.publishedAt ?? new Date();
    if (before.slug !== slug || !before.publishedAt) {
      await tx.facility.update({ where: { tenantId_id: { tenantId, id: facilityId } }, data: { slug, publishedAt } });
      await writeAuditEvent(tx, {
        tenantId,
        actor,
        action: 'facility.published',
        subject: { type: 'facility', id: facilityId },
        metadata: { slug, previousSlug: before.slug !== slug ? before.slug : null },
      });
    }
    return { slug, url: bookingSiteUrl(slug), publishedAt };
  });
}

/**
 * Takes a facility's booking site down: `published_at` cleared, so `/b/{slug}` answers 404; the slug
 * stays the facility's for a later publish. Audited `facility.unpublished`; unpublishing an
 * unpublished facility changes nothing; another tenant's facility is `not_found`.
 */
export async function unpublishFacility(input: {
  tenantId: string;
  facilityId: string;
  actor: Actor;
}): Promise<{ id: string; published: false }> {
  const { tenantId, facilityId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const rows = await tx.facility.findMany({
      where: { tenantId, id: facilityId },
      select: { slug: true, publishedAt: true },
    });
    if (rows.length !== 1) throw new AppError('not_found', 'No such facility.');
    if (rows[0]!.publishedAt) {
      await tx.facility.update({ where: { tenantId_id: { tenantId, id: facilityId } }, data: { publishedAt: null } });
      await writeAuditEvent(tx, {
        tenantId,
        actor,
        action: 'facility.unpublished',
        subject: { type: 'facility', id: facilityId },
        metadata: { slug: rows[0]!.slug },
      });
    }
    return { id: facilityId, published: false };
  });
}
