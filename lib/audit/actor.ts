/** Who did something, snapshotted into audit rows so a deleted user or guest still reads as someone. */
export type Actor = {
  type: 'user' | 'api_key' | 'guest' | 'system' | 'provider';
  id: string | null;
  label: string;
};

export const SYSTEM_ACTOR: Actor = { type: 'system', id: null, label: 'system' };
