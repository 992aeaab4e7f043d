'use server';

import { z } from 'zod';
import { ROLES } from '@/lib/auth/permissions';
import { changeMemberRole, createMember, setMemberActive, unlockMember } from '@/lib/staff/members';
import { staffAction } from '@/app/_server/action';

const STAFF = { path: '/manage/staff' } as const;

/** Adds a member; a new account's one-time password is in the answer, once. Audited. */
export const createMemberAction = staffAction(
  {
    name: 'createMember',
    permission: 'staff.manage',
    input: z.object({
      email: z.email('staff.create.emailInvalid').max(320, 'staff.create.emailInvalid'),
      name: z.string().trim().max(200, 'staff.create.nameTooLong'),
      role: z.enum(ROLES, 'staff.create.roleRequired'),
    }),
    echo: { email: 'text', name: 'text', role: 'text' },
    revalidate: STAFF,
  },
  async ({ input, tenantId, actor }) => ({
    ...(await createMember({ ...input, tenantId, actor })),
    email: input.email,
  }),
);

/** Changes a member's role; the last active manager stays one. Audited. */
export const changeMemberRoleAction = staffAction(
  {
    name: 'changeMemberRole',
    permission: 'staff.manage',
    input: z.object({ userId: z.uuid(), role: z.enum(ROLES) }),
    revalidate: STAFF,
  },
  ({ input: { userId, role }, tenantId, actor }) => changeMemberRole({ tenantId, userId, role, actor }),
);

/** Deactivates or reactivates a member; the last active manager stays active. Audited. */
export const setMemberActiveAction = staffAction(
  {
    name: 'setMemberActive',
    permission: 'staff.manage',
    input: z.object({ userId: z.uuid(), active: z.enum(['true', 'false']) }),
    revalidate: STAFF,
  },
  ({ input: { userId, active }, tenantId, actor }) =>
    setMemberActive({ tenantId, userId, active: active === 'true', actor }),
);

/** Clears a member's failed sign-ins (what `cli user-unlock` does). Audited. */
export const unlockMemberAction = staffAction(
  { name: 'unlockMember', permission: 'staff.manage', input: z.object({ userId: z.uuid() }), revalidate: STAFF },
  ({ input: { userId }, tenantId, actor }) => unlockMember({ tenantId, userId, actor }),
);
