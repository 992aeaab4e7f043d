import type { Translate } from '@/lib/i18n/locale';
import { FacilityContact } from './facility-contact';
import { GuestHelpActions } from './guest-help-actions';
import { guestHelpWords } from './guest-help-words';

/**
 * How a guest in a live stay reaches the property: the phone first (a tel: link), the email and the
 * address, then a message to the desk and "my code does not work", which tells the desk at once
 * and shows a backup code where the lock keeps a pool. English and Japanese, from the server.
 */
export function GuestHelp({
  t,
  token,
  phone,
  email,
  address,
}: {
  t: Translate;
  token: string;
  phone: string | null;
  email: string | null;
  address: string | null;
}) {
  return (
    <section className="guest-info guest-help" aria-labelledby="guest-help" data-testid="guest-help">
      <h2 id="guest-help" className="guest-info__heading">
        {t('guestHelp.title')}
      </h2>
      {phone && <p className="guest-text">{t('guestHelp.lead')}</p>}
      <FacilityContact t={t} phone={phone} email={email} address={address} headingLevel={3} />
      <GuestHelpActions token={token} words={guestHelpWords(t)} />
    </section>
  );
}
