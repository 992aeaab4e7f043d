import { runStatements, statement, sqlLiteral } from '../db/tx';
import type { Locale } from '../i18n/locales';
import type { Role } from './permissions';

export type Membership = { tenantId: string; tenantName: string; role: Role };
export type StaffIdentity = {
  /** `locale`: the language the person chose on /account, null when they chose none. */
  user: { id: string; email: string; name: string; locale: Locale | null };
  memberships: Membership[];
  /** The account's password is a one-time one: it must be replaced before anything else. */
  mustChangePassword: boolean;
  /** The session generation the session began with (and still current). */
  sessionGeneration: number;
};
export type StaffContext = StaffIdentity & { current: Membership };

/**
 * Loads a signed-in account and every tenant it is an active member of; `null` when the user no
 * longer exists or the session has ended — its generation is not the account's any more (the
 * password changed since it began). One statement in one round trip (every staff page asks it first).
 */
export async function loadStaffIdentity(userId: string, sessionGeneration: number): Promise<StaffIdentity | null> {
  type Row = StaffIdentity['user'] & {
    memberships: Membership[];
    password_one_time: boolean;
    session_generation: number;
  };
  const [rows] = await runStatements({ role: 'app_service' }, [
    // A deactivated membership is no membership: its tenant is gone from the next request on.
    statement<Row>(
      `select u.id, u.email, u.name, u.locale, u.password_one_time, u.session_generation,
            coalesce((select json_agg(json_build_object('tenantId', m.tenant_id, 'tenantName', t.name, 'role', m.role)
                                      order by m.created_at, m.tenant_id)
                        from memberships m join tenants t on t.id = m.tenant_id
                       where m.user_id = u.id and m.deactivated_at is null), '[]') as memberships
       from users u where u.id = ${sqlLiteral(userId, 'uuid')}`,
    ),
  ]);
  const found = rows![0];
  if (!found || found.session_generation !== sessionGeneration) return null;
  const { memberships, password_one_time, session_generation, ...user } = found;
  return { user, memberships, mustChangePassword: password_one_time, sessionGeneration: session_generation };
}

/** Picks the tenant the staff member works in: the requested one if they belong to it, else their first. */
export function pickMembership(identity: StaffIdentity, requestedTenantId: string | undefined): Membership | null {
  const requested = identity.memberships.find((m) => m.tenantId === requestedTenantId);
  return requested ?? identity.memberships[0] ?? null;
}
