import { useFormatter, useTranslations } from 'next-intl';

/**
 * Door errors the desk reads in plain words: the providers' classified codes and the ones
 * lib/locks/sync-provider.ts writes itself. Any other code is shown as it is.
 */
const PLAIN_DOOR_ERRORS = [
  'duplicate_code_on_device',
  'no_space_for_access_code_on_device',
  'failed_to_set_on_device',
  'not_confirmed',
  'timeout',
  'offline_lock_needs_single_door',
  'offline_codes_unsupported',
  'device_offline',
  'gateway_offline',
  'no_gateway_near_device',
  'device_busy',
  'gateway_busy',
  'quota_exceeded',
  'rate_limited',
  'clock_skew',
  'unauthorized',
  'rewindow_unsupported',
] as const;
type PlainDoorError = (typeof PLAIN_DOOR_ERRORS)[number];

/** A backup's audit reason when its key's door had no error yet, only a state: the code had not arrived. */
const NOT_REACHED = ['code_pending', 'code_setting'];

/** `seam_not_configured`, `ttlock_not_configured`…: the tenant's provider has no credentials. */
const NOT_CONFIGURED = /^([a-z0-9]+)_not_configured$/;

const isPlain = (code: string): code is PlainDoorError => (PLAIN_DOOR_ERRORS as readonly string[]).includes(code);

/** Whether `code` has plain words (so a caller showing the raw code beside them knows it is a translation). */
export function isKnownDoorError(code: string): boolean {
  return isPlain(code) || NOT_REACHED.includes(code) || NOT_CONFIGURED.test(code);
}

type Props = {
  code: string;
  /** When the code was found missing (a backup's reason `code_pending`/`code_setting`), in `zone`. */
  at?: Date | string;
  zone: string;
};

/** Why a door has no code (or lost it), in plain words; an unknown code reads "Lock error" and the code. */
export function DoorErrorText({ code, at, zone }: Props) {
  const t = useTranslations('key.doorError');
  const format = useFormatter();
  if (isPlain(code)) return <>{t(code)}</>;
  const notConfigured = NOT_CONFIGURED.exec(code);
  if (notConfigured) return <>{t('providerNotConfigured', { provider: notConfigured[1]! })}</>;
  if (NOT_REACHED.includes(code) && at !== undefined) {
    return <>{t('notReached', { time: format.dateTime(new Date(at), 'stamp', { timeZone: zone }) })}</>;
  }
  return (
    <>
      {t('other')}: <code>{code}</code>
    </>
  );
}
