'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useEffect, useId, useRef, useState } from 'react';
import {
  changeMemberRoleAction,
  inviteMemberAction,
  resendInvitationAction,
  revokeInvitationAction,
  setMemberActiveAction,
  unlockMemberAction,
} from '@/app/manage/staff/actions';
import { Button } from '@/components/ui/button';
import { ActionInput, ActionSelect } from '@/components/ui/action-field';
import { Select } from '@/components/ui/field';
import type { ActionState } from '@/components/ui/action-state';
import { ActionResult } from './action-result';
import styles from './setup.module.css';

/**
 * "Invite a member": email, name and role. The answer is the same for every address ("invitation
 * sent"): whether it already has an account on the install is never shown to this tenant.
 */
export function CreateMemberForm() {
  const t = useTranslations('staff.create');
  const roles = useTranslations('staff.role');
  const [state, action, pending] = useActionState(inviteMemberAction, null);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  const invited = state?.ok && state.attempt !== dismissed ? state.data : null;
  useEffect(() => {
    if (state?.ok) panel.current?.focus();
  }, [state]);

  return (
    <>
      {invited && (
        <div
          ref={panel}
          tabIndex={-1}
          role="region"
          aria-labelledby={`${id}-created`}
          className="result-panel result-panel--success"
          data-testid="member-created"
        >
          <div className="result-panel__body">
            <p id={`${id}-created`} className="result-panel__title">
              {t('created', { email: invited.email })}
            </p>
          </div>
          <Button onClick={() => setDismissed(state!.attempt)} data-testid="member-created-dismiss">
            {t('dismiss')}
          </Button>
        </div>
      )}
      <form action={action} noValidate className="form" data-testid="member-form" key={state?.attempt ?? 0}>
        <div className={styles.grid}>
          <ActionInput
            state={state}
            id={`${id}-email`}
            name="email"
            label={t('email')}
            type="email"
            autoComplete="off"
            data-testid="member-email"
          />
          <ActionInput
            state={state}
            id={`${id}-name`}
            name="name"
            label={t('name')}
            autoComplete="off"
            data-testid="member-name"
          />
          <ActionSelect
            state={state}
            id={`${id}-role`}
            name="role"
            label={t('role')}
            stored="front_desk"
            data-testid="member-role"
          >
            <option value="front_desk">{roles('front_desk')}</option>
            <option value="manager">{roles('manager')}</option>
          </ActionSelect>
        </div>
        <div className="form__submit-row">
          <Button variant="primary" type="submit" loading={pending} data-testid="member-create">
            {t('submit')}
          </Button>
        </div>
        {state && !state.ok && (
          <ActionResult attempt={state.attempt} tone="error" testId="member-create-result">
            {state.error.message}
          </ActionResult>
        )}
      </form>
    </>
  );
}

type Member = { userId: string; label: string; role: 'front_desk' | 'manager'; active: boolean };

/** A member's row actions: change role, deactivate or reactivate, unlock after failed sign-ins. */
export function MemberActions({ member }: { member: Member }) {
  const t = useTranslations('staff');
  const [roleState, roleAction, rolePending] = useActionState(changeMemberRoleAction, null);
  const [activeState, activeAction, activePending] = useActionState(setMemberActiveAction, null);
  const [unlockState, unlockAction, unlockPending] = useActionState(unlockMemberAction, null);
  const id = useId();
  const failed = [roleState, activeState, unlockState].find((s) => s && !s.ok);
  return (
    <div className={styles.row}>
      <form action={roleAction} className={styles.row}>
        <input type="hidden" name="userId" value={member.userId} />
        <Select
          id={`${id}-role`}
          name="role"
          compact
          defaultValue={member.role}
          aria-label={t('roleOf', { member: member.label })}
          data-testid="member-role-select"
        >
          <option value="front_desk">{t('role.front_desk')}</option>
          <option value="manager">{t('role.manager')}</option>
        </Select>
        <Button type="submit" size="compact" loading={rolePending} data-testid="member-role-save">
          {t('changeRole')}
        </Button>
      </form>
      <form action={activeAction}>
        <input type="hidden" name="userId" value={member.userId} />
        <input type="hidden" name="active" value={member.active ? 'false' : 'true'} />
        <Button
          type="submit"
          size="compact"
          variant={member.active ? 'danger' : 'secondary'}
          loading={activePending}
          aria-label={t(member.active ? 'deactivateLabel' : 'reactivateLabel', { member: member.label })}
          data-testid={member.active ? 'member-deactivate' : 'member-reactivate'}
        >
          {member.active ? t('deactivate') : t('reactivate')}
        </Button>
      </form>
      <form action={unlockAction}>
        <input type="hidden" name="userId" value={member.userId} />
        <Button
          type="submit"
          size="compact"
          loading={unlockPending}
          aria-label={t('unlockLabel', { member: member.label })}
          data-testid="member-unlock"
        >
          {t('unlock')}
        </Button>
      </form>
      {failed && !failed.ok && (
        <ActionResult attempt={failed.attempt} tone="error" testId="member-action-result">
          {failed.error.message}
        </ActionResult>
      )}
      {unlockState?.ok && (
        <ActionResult attempt={unlockState.attempt} tone="success" testId="member-unlocked">
          {t('unlocked')}
        </ActionResult>
      )}
    </div>
  );
}

const INVITATION_ACTIONS = {
  resend: { variant: 'secondary', label: 'resendLabel', done: 'resent' },
  revoke: { variant: 'danger', label: 'revokeLabel', done: 'revoked' },
} as const;

type Invitation = { id: string; email: string };

/** An invitation's row button and its answer under it, whichever action it sends. */
function InvitationButton({
  kind,
  invitation,
  state,
  action,
  pending,
}: {
  kind: keyof typeof INVITATION_ACTIONS;
  invitation: Invitation;
  state: ActionState<unknown>;
  action: (form: FormData) => void;
  pending: boolean;
}) {
  const t = useTranslations('staff.invitations');
  const { variant, label, done } = INVITATION_ACTIONS[kind];
  return (
    <div className={styles.row}>
      <form action={action}>
        <input type="hidden" name="invitationId" value={invitation.id} />
        <Button
          type="submit"
          size="compact"
          variant={variant}
          loading={pending}
          aria-label={t(label, { email: invitation.email })}
          data-testid={`invitation-${kind}`}
        >
          {t(kind)}
        </Button>
      </form>
      {state && (
        <ActionResult
          attempt={state.attempt}
          tone={state.ok ? 'success' : 'error'}
          testId={`invitation-${kind}-result`}
        >
          {state.ok ? t(done, { email: invitation.email }) : state.error.message}
        </ActionResult>
      )}
    </div>
  );
}

/** An invitation's row action: send it again (a new link and mail; the old link stops working). */
export function ResendInvitation({ invitation }: { invitation: Invitation }) {
  const [state, action, pending] = useActionState(resendInvitationAction, null);
  return <InvitationButton kind="resend" invitation={invitation} state={state} action={action} pending={pending} />;
}

/** An invitation's row action: revoke it (it can then never be accepted). */
export function RevokeInvitation({ invitation }: { invitation: Invitation }) {
  const [state, action, pending] = useActionState(revokeInvitationAction, null);
  return <InvitationButton kind="revoke" invitation={invitation} state={state} action={action} pending={pending} />;
}
