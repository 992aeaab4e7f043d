import { AppError } from '../errors';

export type DataKey = { key: string; version: number };

/** The current data key (`APP_DATA_KEY`, `APP_DATA_KEY_VERSION`, default 1). Never stored, never logged. */
export function currentDataKey(): DataKey {
  const key = process.env.APP_DATA_KEY;
  const version = Number(process.env.APP_DATA_KEY_VERSION ?? '1');
  if (!key || key.length < 16) throw new AppError('data_key_mismatch', 'APP_DATA_KEY is missing or too short (at least 16 characters).');
  if (!Number.isInteger(version) || version < 1) throw new AppError('data_key_mismatch', 'APP_DATA_KEY_VERSION must be a positive whole number.');
  return { key, version };
}

/** The key before the current one (`APP_DATA_KEY_PREVIOUS`), needed only to rotate. */
export function previousDataKey(): string {
  const key = process.env.APP_DATA_KEY_PREVIOUS;
  if (!key) throw new AppError('data_key_mismatch', 'APP_DATA_KEY_PREVIOUS must hold the previous key to rotate secrets.');
  return key;
}
