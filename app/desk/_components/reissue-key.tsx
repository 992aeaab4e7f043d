'use client';

import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { reissueKeyAction } from '@/app/desk/stay-actions';
import { StayActionPanel } from './stay-action-panel';
import { ReasonField } from './stay-actions';

/**
 * "Re-issue key" on a live key (a disclosed PIN, a lost phone): a new PIN in the same state and
 * window, the old one revoked — with a reason, and a confirmation naming room and guest (or, for a
 * staff code, its label).
 */
export function ReissueKeyForm({
  keyId,
  live,
  room,
  holder,
}: {
  keyId: string;
  live: boolean;
  room: string;
  holder: string;
}) {
  const t = useTranslations('stay');
  const [state, action, pending] = useActionState(reissueKeyAction, null);
  const names = { room, guest: holder };
  return (
    <StayActionPanel
      testId="key-reissue"
      label={t('reissue.open')}
      named={t('reissue.named', names)}
      confirm={t('reissue.confirm', names)}
      submit={t('reissue.submit')}
      submitNamed={t('reissue.submitNamed', names)}
      pending={t('reissue.pending')}
      available={live}
      action={action}
      state={state}
      isPending={pending}
      hidden={{ keyId }}
      fields={(errorId) => <ReasonField id={`${keyId}-reissue-reason`} errorId={errorId} state={state} />}
      done={(data) => (data.pin ? t('reissue.done', { pin: data.pin }) : t('reissue.doneNoPin'))}
    />
  );
}
