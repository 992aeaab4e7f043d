import type { Actor } from '../audit/actor';
import { asService, withTenant } from '../db/tx';
import { AppError } from '../errors';
import { fromTimeColumn, timeColumn, type FacilitySettings } from './facility-input';
import { LOCALES, type Locale } from '../i18n/locales';
import { readGuestInfo } from './guest-info';
import { writeAuditEvent } from '../audit/write-audit-event';

/** Prisma's columns for the settings given (those left out keep their value or default). */
export function facilityColumns(settings: Partial<FacilitySettings>) {
  const { checkInTime, checkOutTime, opensAt, closesAt, guestInfo, ...rest } = settings;
  return {
    ...rest,
    ...(checkInTime !== undefined && { checkInTime: timeColumn(checkInTime) }),
    ...(checkOutTime !== undefined && { checkOutTime: timeColumn(checkOutTime) }),
    ...(opensAt !== undefined && { opensAt: opensAt === null ? null : timeColumn(opensAt) }),
    ...(closesAt !== undefined && { closesAt: closesAt === null ? null : timeColumn(closesAt) }),
    ...(guestInfo !== undefined && { guestInfo }),
  };
}

const SETTINGS_SELECT = {
  name: true,
  timeZone: true,
  defaultLanguage: true,
  guestLanguages: true,
  bookingUnit: true,
  checkInTime: true,
  checkOutTime: true,
  opensAt: true,
  closesAt: true,
  keyLeadMinutes: true,
  earlyCheckInMinutes: true,
  address: true,
  phone: true,
  email: true,
  guestInfo: true,
} as const;

type SettingsRow = {
  name: string;
  timeZone: string;
  defaultLanguage: string;
  guestLanguages: string[];
  bookingUnit: 'night' | 'hour';
  checkInTime: Date;
  checkOutTime: Date;
  opensAt: Date | null;
  closesAt: Date | null;
  keyLeadMinutes: number;
  earlyCheckInMinutes: number;
  address: string | null;
  phone: string | null;
  email: string | null;
  guestInfo: unknown;
};

/** A facility row's settings as the form and the domain speak them. */
export function toFacilitySettings(row: SettingsRow): FacilitySettings {
  return {
    ...row,
    checkInTime: fromTimeColumn(row.checkInTime),
    checkOutTime: fromTimeColumn(row.checkOutTime),
    opensAt: row.opensAt && fromTimeColumn(row.opensAt),
    closesAt: row.closesAt && fromTimeColumn(row.closesAt),
    guestInfo: readGuestInfo(row.guestInfo),
    defaultLanguage: LOCALES.find((locale: Locale) => locale === row.defaultLanguage) ?? 'en',
    guestLanguages: LOCALES.filter((locale) => row.guestLanguages.includes(locale)),
  };
}

// What an audit row says changed: the names of the settings, never the guest texts themselves (a Wi-Fi password).
function changedSettings(before: FacilitySettings, after: FacilitySettings): string[] {
  return (Object.keys(after) as (keyof FacilitySettings)[]).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
}

/**
 * Changes every setting of one of the tenant's facilities in one transaction, audited
 * `facility.updated` with the names of the settings that changed; another tenant's facility is
 * `not_found`. The database's checks (opening hours, minutes, lengths) have the last word.
 */
export async function updateFacility(input: {
  tenantId: string;
  facilityId: string;
  settings: FacilitySettings;
  actor: Actor;
}): Promise<{ id: string; changed: string[] }> {
  const { tenantId, facilityId, settings, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const rows = await tx.facility.findMany({ where: { tenantId, id: facilityId }, select: SETTINGS_SELECT });
    if (rows.length !== 1) throw new AppError('not_found', 'No such facility.');
    const changed = changedSettings(toFacilitySettings(rows[0]!), settings);
    await tx.facility.update({ where: { tenantId_id: { tenantId, id: facilityId } }, data: facilityColumns(settings) });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'facility.updated',
      subject: { type: 'facility', id: facilityId },
      metadata: { name: settings.name, changed },
    });
    return { id: facilityId, changed };
  });
}

/** One facility of the tenant with its settings; null for an unknown id or another tenant's. */
export async function getFacilitySettings(input: {
  tenantId: string;
  facilityId: string;
}): Promise<(FacilitySettings & { id: string }) | null> {
  return withTenant({ tenantId: input.tenantId }, async (tx) => {
    const rows = await tx.facility.findMany({
      where: { tenantId: input.tenantId, id: input.facilityId },
      select: { id: true, ...SETTINGS_SELECT },
    });
    return rows.length === 1 ? { id: rows[0]!.id, ...toFacilitySettings(rows[0]!) } : null;
  });
}

/** Every facility of the tenant with its settings and how many rooms it has (archived ones apart), by name. */
export async function listFacilitySettings({ tenantId }: { tenantId: string }) {
  return withTenant({ tenantId }, async (tx) => {
    const rows = await tx.facility.findMany({
      where: { tenantId },
      select: {
        id: true,
        ...SETTINGS_SELECT,
        _count: { select: { rooms: { where: { archivedAt: null } } } },
      },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    });
    return rows.map(({ id, _count, ...row }) => ({ id, rooms: _count.rooms, ...toFacilitySettings(row) }));
  });
}
