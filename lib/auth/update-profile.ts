import { asService, runInTransaction, runStatements, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import type { Locale } from '../i18n/locales';

/** The name and language a person keeps on their own account. */
export type Profile = { name: string; locale: Locale | null };

/**
 * The signed-in person changes their own name and language (null: the browser's). The language is the UI's
 * whenever they are signed in, and their account mails' (invitations, password resets) from then on.
 */
export async function updateProfile(input: { userId: string; name: string; locale: Locale | null }): Promise<Profile> {
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<Profile>(`update users set name = ${sqlLiteral(input.name.trim(), 'text')},
        locale = ${sqlLiteral(input.locale, 'text')}
        where id = ${sqlLiteral(input.userId, 'uuid')} returning name, locale`),
    ]),
  );
  if (!rows[0]) throw new AppError('not_found', 'No such account.');
  return rows[0];
}

/** The person's language only (the header's language switcher, signed in). */
export async function setOwnLocale(input: { userId: string; locale: Locale }): Promise<void> {
  await asService((tx) =>
    runInTransaction(tx, [
      statement(`update users set locale = ${sqlLiteral(input.locale, 'text')}
        where id = ${sqlLiteral(input.userId, 'uuid')} returning id`),
    ]),
  );
}

/**
 * The language a signed-in person chose, or null (none chosen, no such account, or a session that has ended):
 * one primary-key read, for the UI locale of their requests.
 */
export async function ownLocale(userId: string, sessionGeneration: number): Promise<Locale | null> {
  const [rows] = await runStatements({ role: 'app_service' }, [
    statement<{ locale: Locale | null }>(`select locale from users
      where id = ${sqlLiteral(userId, 'uuid')} and session_generation = ${sqlLiteral(sessionGeneration, 'int4')}`),
  ]);
  return rows[0]?.locale ?? null;
}
