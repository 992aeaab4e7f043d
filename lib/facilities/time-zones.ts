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

// ICU lists some zones under names the IANA database has since replaced (Node 20 offers "Asia/Calcutta",
// "Europe/Kiev"); a list people choose from says the current name. Both name the same zone.
const CURRENT_NAMES: Record<string, string> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/**
 * The IANA zones a facility can be in, as the runtime lists them under their current IANA names
 * (`Asia/Kolkata`, not ICU's `Asia/Calcutta`), sorted, UTC first (Intl leaves it out).
 */
export function timeZoneChoices(): string[] {
  const zones = Intl.supportedValuesOf('timeZone')
    .map((zone) => {
      const current = CURRENT_NAMES[zone];
      return current && isTimeZone(current) ? current : zone;
    })
    .filter((zone) => zone !== 'UTC')
    .sort();
  return ['UTC', ...new Set(zones)];
}
