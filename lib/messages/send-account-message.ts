import { accountLinkUrl } from '../auth/account-tokens';
import { asService, effectStatement, runInTransaction, sqlLiteral, statement, type Tx } from '../db/tx';
import { formatDateTime } from '../i18n/formats';
import { intlLocale } from '../i18n/locale';
import { wordsOf, type Composition } from './compose-message';
import { renderMailTemplate } from './render-mail';
import { claimDecision, deliverClaimed, type SendOutcome } from './send-message';

/** The columns of an account message that composing and sending read. */
type AccountMessageRow = {
  id: string;
  kind: 'staff_invitation' | 'password_reset' | 'sign_up';
  invitation_id: string | null;
  reset_id: string | null;
  sign_up_id: string | null;
  to_address: string;
  locale: string;
  status: 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';
  claimed_at: Date | null;
};

/**
 * The worker's `send_account_message`: a person's mail (an invitation's, a reset's or a sign-up's link), sent at
 * most once per claim exactly as guest mail is (lib/messages/send-message.ts): claimed before SMTP,
 * `sent` after, retried, `failed` after the last attempt. Skipped when its link no longer works (the
 * invitation was answered, revoked or superseded, the reset or sign-up link used or replaced), so a late retry
 * never mails a dead link. The link is derived from its row's id here; only its hash is stored.
 */
export async function sendAccountMessage(input: {
  messageId: string;
  attempt: number;
  maxAttempts: number;
}): Promise<SendOutcome> {
  const { messageId } = input;
  const claimed = await asService(async (tx) => {
    const [rows] = await runInTransaction(tx, [
      statement<AccountMessageRow>(`select id, kind::text, invitation_id, reset_id, sign_up_id, to_address,
        locale, status::text, claimed_at
      from account_messages where id = ${sqlLiteral(messageId, 'uuid')} for update`),
    ]);
    const message = rows[0];
    if (claimDecision(message) === 'done') return { outcome: 'done' as const };
    const composed = await composeAccountMail(tx, message!);
    if ('skip' in composed) {
      await runInTransaction(tx, [
        effectStatement(`update account_messages set status = 'skipped', last_error = ${sqlLiteral(composed.skip, 'text')}, claimed_at = null,
          updated_at = now() where id = ${sqlLiteral(messageId, 'uuid')}`),
      ]);
      return { outcome: 'skipped' as const };
    }
    await runInTransaction(tx, [
      effectStatement(`update account_messages set status = 'sending', claimed_at = now(), attempts = attempts + 1,
        updated_at = now() where id = ${sqlLiteral(messageId, 'uuid')}`),
    ]);
    return { outcome: 'claimed' as const, mail: composed.mail };
  });
  if (claimed.outcome !== 'claimed') return claimed.outcome;
  return deliverClaimed({
    ...input,
    mail: claimed.mail,
    log: { accountMessageId: messageId },
    sent: (providerId) =>
      asService((tx) =>
        runInTransaction(tx, [
          effectStatement(`update account_messages set status = 'sent', sent_at = now(), claimed_at = null,
            last_error = null, provider_message_id = ${sqlLiteral(providerId, 'text')}, updated_at = now() where id = ${sqlLiteral(messageId, 'uuid')}`),
        ]),
      ),
    unsent: (status, reason) =>
      asService((tx) =>
        runInTransaction(tx, [
          effectStatement(`update account_messages set status = ${sqlLiteral(status, 'message_status')}, last_error = ${sqlLiteral(reason, 'text')},
            claimed_at = null, updated_at = now() where id = ${sqlLiteral(messageId, 'uuid')}`),
        ]),
      ),
  });
}

async function composeAccountMail(tx: Tx, message: AccountMessageRow): Promise<Composition> {
  const { lang, t } = wordsOf(message.locale);
  const at = (date: Date) => formatDateTime(date, 'stamp', { locale: intlLocale(lang), timeZone: 'UTC' }) + ' UTC';
  if (message.kind === 'staff_invitation') {
    const [rows] = await runInTransaction(tx, [
      statement<{ tenant_name: string; role: 'front_desk' | 'manager'; inviter: string; expires_at: Date }>(`
      select t.name as tenant_name, i.role::text, i.invited_by_label as inviter, i.expires_at
        from staff_invitations i join tenants t on t.id = i.tenant_id
       where i.id = ${sqlLiteral(message.invitation_id, 'uuid')}
         and i.accepted_at is null and i.ended_at is null and i.expires_at > now()`),
    ]);
    const invitation = rows[0];
    if (!invitation) return { skip: 'invitation_closed' };
    const vars = { tenant: invitation.tenant_name, inviter: invitation.inviter, role: t(`role.${invitation.role}`) };
    return mailOf(message.to_address, lang, {
      subject: t('mail.invitation.subject', vars),
      heading: t('mail.invitation.heading', vars),
      cta: t('mail.invitation.cta'),
      url: accountLinkUrl('staff-invitation', message.invitation_id!),
      notes: [t('mail.invitation.expires', { time: at(invitation.expires_at) }), t('mail.invitation.notYou')],
      footer: t('mail.invitation.footer', vars),
    });
  }
  if (message.kind === 'sign_up') {
    const [rows] = await runInTransaction(tx, [
      statement<{ organisation_name: string; expires_at: Date; has_account: boolean }>(`
      select s.organisation_name, s.expires_at,
             exists (select 1 from users u where u.email = s.email and u.password_hash is not null) as has_account
        from sign_ups s
       where s.id = ${sqlLiteral(message.sign_up_id, 'uuid')}
         and s.used_at is null and s.ended_at is null and s.expires_at > now()`),
    ]);
    const signUp = rows[0];
    if (!signUp) return { skip: 'sign_up_closed' };
    const vars = { organisation: signUp.organisation_name, email: message.to_address };
    return mailOf(message.to_address, lang, {
      subject: t('mail.signUp.subject', vars),
      heading: t(signUp.has_account ? 'mail.signUp.headingAccount' : 'mail.signUp.heading', vars),
      cta: t('mail.signUp.cta'),
      url: accountLinkUrl('sign-up', message.sign_up_id!),
      notes: [t('mail.signUp.expires', { time: at(signUp.expires_at) }), t('mail.signUp.notYou')],
      footer: t('mail.signUp.footer'),
    });
  }
  const [rows] = await runInTransaction(tx, [
    statement<{ expires_at: Date }>(`select expires_at from password_resets
    where id = ${sqlLiteral(message.reset_id, 'uuid')}
      and used_at is null and ended_at is null and expires_at > now()`),
  ]);
  if (!rows[0]) return { skip: 'reset_closed' };
  return mailOf(message.to_address, lang, {
    subject: t('mail.reset.subject'),
    heading: t('mail.reset.heading', { email: message.to_address }),
    cta: t('mail.reset.cta'),
    url: accountLinkUrl('password-reset', message.reset_id!),
    notes: [t('mail.reset.expires', { time: at(rows[0].expires_at) }), t('mail.reset.notYou')],
    footer: t('mail.reset.footer'),
  });
}

async function mailOf(
  to: string,
  lang: string,
  words: { subject: string; heading: string; cta: string; url: string; notes: string[]; footer: string },
): Promise<Composition> {
  const { subject, ...body } = words;
  const { html, text } = await renderMailTemplate('LinkEmail', { lang, ...body });
  return { mail: { to, subject, html, text, attachments: [] } };
}
