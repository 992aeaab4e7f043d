import { AppError } from '../errors';

export type DataKey = { key: string; version: number };

/** The current key and every key the install still knows, by version (`{"1": "…", "2": "…"}`). */
export type Keyring = { current: DataKey; keys: Record<string, string> };

const MIN_KEY_LENGTH = 16;

function invalid(message: string): AppError {
  return new AppError('data_key_mismatch', message);
}

/** The current data key (`APP_DATA_KEY`, `APP_DATA_KEY_VERSION`, default 1). Never stored, never logged. */
export function currentDataKey(): DataKey {
  const key = process.env.APP_DATA_KEY;
  const version = Number(process.env.APP_DATA_KEY_VERSION ?? '1');
  if (!key || key.length < MIN_KEY_LENGTH)
    throw invalid('APP_DATA_KEY is missing or too short (at least 16 characters).');
  if (!Number.isInteger(version) || version < 1) throw invalid('APP_DATA_KEY_VERSION must be a positive whole number.');
  return { key, version };
}

/**
 * Parses `APP_DATA_KEYS`: older keys as `version:key` pairs, comma-separated. Pure; throws
 * `data_key_mismatch` naming the bad entry (never the key itself).
 */
export function parseOlderKeys(text: string | undefined): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const [index, entry] of (text ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .entries()) {
    const colon = entry.indexOf(':');
    const version = Number(entry.slice(0, colon));
    const key = entry.slice(colon + 1);
    if (colon <= 0 || !Number.isInteger(version) || version < 1)
      throw invalid(`APP_DATA_KEYS entry ${index + 1} must look like <version>:<key>.`);
    if (key.length < MIN_KEY_LENGTH)
      throw invalid(`APP_DATA_KEYS entry ${index + 1} (version ${version}) is shorter than 16 characters.`);
    if (keys[String(version)] !== undefined && keys[String(version)] !== key)
      throw invalid(`APP_DATA_KEYS names version ${version} twice.`);
    keys[String(version)] = key;
  }
  return keys;
}

/**
 * The keyring: the current key, the older ones of `APP_DATA_KEYS`, and `APP_DATA_KEY_PREVIOUS` as the
 * version before the current one (kept for installs that rotated with it). A row decrypts with the
 * key of its own version; rotation re-encrypts every older row with the current one.
 */
export function currentKeyring(): Keyring {
  const current = currentDataKey();
  const keys = parseOlderKeys(process.env.APP_DATA_KEYS);
  const previous = process.env.APP_DATA_KEY_PREVIOUS;
  if (previous && current.version > 1) keys[String(current.version - 1)] ??= previous;
  if (keys[String(current.version)] !== undefined && keys[String(current.version)] !== current.key) {
    throw invalid(`APP_DATA_KEYS gives version ${current.version} another key than APP_DATA_KEY.`);
  }
  keys[String(current.version)] = current.key;
  return { current, keys };
}
