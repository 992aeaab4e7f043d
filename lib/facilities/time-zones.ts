/** Whether `value` names an IANA time zone this runtime knows (`Asia/Tokyo`, `UTC`). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 100) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The IANA zones a facility can be in, as the runtime lists them (UTC first: Intl leaves it out). */
export function timeZoneChoices(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}
