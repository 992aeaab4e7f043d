/** Who did something, snapshotted into audit rows so a deleted user or guest still reads as someone. */
export type Actor = {
  type: 'user' | 'api_key' | 'guest' | 'system' | 'provider';
  id: string | null;
  label: string;
};

export const SYSTEM_ACTOR: Actor = { type: 'system', id: null, label: 'system' };

/** A staff member as an actor: always a user with an id. */
export type StaffActor = Actor & { type: 'user'; id: string };

/** The audit actor of a signed-in staff member: their user id, labelled by name or, without one, by email. */
export function staffActor(user: { id: string; name: string; email: string }): StaffActor {
  return { type: 'user', id: user.id, label: user.name || user.email };
}
