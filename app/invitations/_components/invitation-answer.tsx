'use client';

import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { acceptInvitationAction, declineInvitationAction } from '@/app/invitations/actions';
import { Button } from '@/components/ui/button';
import { FormError, Notice } from '@/components/ui/notice';

/** Accept (join the tenant and work in it) or decline the invitation of the link, as the signed-in account. */
export function InvitationAnswer({ token, tenant }: { token: string; tenant: string }) {
  const t = useTranslations('invitation');
  const [accepted, accept, accepting] = useActionState(acceptInvitationAction, null);
  const [declined, decline, declining] = useActionState(declineInvitationAction, null);
  if (declined?.ok)
    return (
      <Notice tone="info" data-testid="invitation-declined">
        {t('declined')}
      </Notice>
    );
  const failed = [accepted, declined].find((s) => s && !s.ok);
  return (
    <div className="actions">
      <form action={accept}>
        <input type="hidden" name="token" value={token} />
        <Button variant="primary" type="submit" loading={accepting} data-testid="invitation-accept">
          {t('accept', { tenant })}
        </Button>
      </form>
      <form action={decline}>
        <input type="hidden" name="token" value={token} />
        <Button type="submit" loading={declining} data-testid="invitation-decline">
          {t('decline')}
        </Button>
      </form>
      <FormError as="div" data-testid="invitation-error">
        {failed && !failed.ok ? failed.error.message : null}
      </FormError>
    </div>
  );
}
