import { useTranslations } from 'next-intl';
import { Notice } from '@/components/ui/notice';
import { actionsFor, doorProblem, type LockProblem } from '@/lib/locks/lock-problems';
import { IssueBackupCodeButton } from '@/app/desk/_components/backup-code';
import type { ReservationDetail } from '@/lib/desk/reservation-detail';
import styles from './lock-problem.module.css';

type ReservationKey = ReservationDetail['accessKeys'][number];

/** A live key's doors that have a problem, with what it is in the desk's words. */
export function keyLockProblems(key: ReservationKey): { lock: string; problem: LockProblem }[] {
  if (key.status !== 'pre_issued' && key.status !== 'active') return [];
  return key.doors.flatMap((door) => {
    const problem = doorProblem(door, door.lock);
    return problem ? [{ lock: door.lock.name, problem }] : [];
  });
}

/**
 * A key's lock problem at the desk (issue 28, item 11 f): what is wrong with which door, in words —
 * lock or gateway offline, the provider's quota, a clock off, credentials, no room for a code — and
 * what the desk can do: a backup code where the lock keeps a pool (a button), a new PIN (the re-issue
 * form below), or the manager. Nothing when every door has the code.
 */
export function LockProblemPanel({ accessKey: key, canAct }: { accessKey: ReservationKey; canAct: boolean }) {
  const t = useTranslations('lockProblem');
  const problems = keyLockProblems(key);
  if (problems.length === 0) return null;
  const backupPossible =
    canAct && key.kind === 'guest' && key.doors.length === 1 && key.doors[0]!.lock.supportsBackupCodes;
  const actions = [...new Set(problems.flatMap(({ problem }) => actionsFor(problem, { backupPossible })))];
  const retrying = key.doors.some((d) => d.state === 'failed' || d.state === 'pending');
  return (
    <div className={styles.panel}>
      <Notice tone="warning" announce={false} data-testid="lock-problem">
        <p className={styles.title}>{t('title')}</p>
        <ul className={styles.list}>
          {problems.map(({ lock, problem }) => (
            <li key={lock} data-testid="lock-problem-kind" data-problem={problem}>
              {t('onLock', { problem: t(`kind.${problem}`), lock })}
            </li>
          ))}
        </ul>
        {retrying && <p className={styles.note}>{t('retrying')}</p>}
        <p className={styles.note}>{t('whatToDo')}</p>
        <ul className={styles.list}>
          {actions.map((action) => (
            <li key={action} data-testid="lock-problem-action" data-action={action}>
              {action === 'backup' ? <IssueBackupCodeButton keyId={key.id} /> : t(`action.${action}`)}
            </li>
          ))}
        </ul>
      </Notice>
    </div>
  );
}
