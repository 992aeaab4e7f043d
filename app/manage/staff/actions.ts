'use server';

import { z } from 'zod';
import { ROLES } from '@/lib/auth/permissions';
import { inviteMember, resendInvitation, revokeInvitation } from '@/lib/staff/invitations';
import { changeMemberRole, setMemberActive, unlockMember } from '@/lib/staff/members';
import { staffAction } from '@/app/_server/action';

const STAFF = { path: '/manage/staff' } as const;

/**
 * Invites an address with a role: the same answer whether or not it has an account on the install;
 * nothing changes for that person until they accept the mailed link. Audited.
 */
export const inviteMemberAction = staffAction(
  {
    name: 'inviteMember',
    permission: 'staff.manage',
    input: z.object({
      email: z.email('staff.create.emailInvalid').max(320, 'staff.create.emailInvalid'),
      name: z.string().trim().max(200, 'staff.create.nameTooLong'),
      role: z.enum(ROLES, 'staff.create.roleRequired'),
    }),
    echo: { email: 'text', name: 'text', role: 'text' },
    revalidate: STAFF,
  },
  ({ input, tenantId, actor }) => inviteMember({ ...input, tenantId, actor }),
);

/** Ends an invitation still waiting for an answer. Audited. */
export const revokeInvitationAction = staffAction(
  {
    name: 'revokeInvitation',
    permission: 'staff.manage',
    input: z.object({ invitationId: z.uuid() }),
    revalidate: STAFF,
  },
  ({ input: { invitationId }, tenantId, actor }) => revokeInvitation({ tenantId, invitationId, actor }),
);

/** Sends an invitation again: a new link and mail, 72 h from now; the old link stops working. Audited, rate limited. */
export const resendInvitationAction = staffAction(
  {
    name: 'resendInvitation',
    permission: 'staff.manage',
    input: z.object({ invitationId: z.uuid() }),
    revalidate: STAFF,
  },
  ({ input: { invitationId }, tenantId, actor }) => resendInvitation({ tenantId, invitationId, actor }),
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
