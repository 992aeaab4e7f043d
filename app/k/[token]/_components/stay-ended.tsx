import type { Translate } from '@/lib/i18n/locale';
import { FacilityContact } from './facility-contact';

/**
 * After the stay: a thank-you with the property's contact, or, for a cancelled booking, that plain
 * fact — never "invalid link", and never a key.
 */
export function StayEnded({
  kind,
  t,
  facilityName,
  phone,
  email = null,
  address,
}: {
  kind: 'thanks' | 'cancelled';
  t: Translate;
  facilityName: string;
  phone: string | null;
  email?: string | null;
  address: string | null;
}) {
  return (
    <section className="guest-card" aria-labelledby="guest-ended" data-testid="guest-ended" data-state={kind}>
      <h1 id="guest-ended" className="guest-ended__title">
        {kind === 'thanks' ? t('guestStay.thanksTitle') : t('guestStay.cancelledTitle')}
      </h1>
      <p className="guest-text">
        {kind === 'thanks' ? t('guestStay.thanksBody', { facility: facilityName }) : t('guestStay.cancelledBody')}
      </p>
      {kind === 'thanks' && (
        <p className="guest-text" data-testid="guest-no-reentry">
          {t('guestHome.noReentry')}
        </p>
      )}
      {kind === 'thanks' && (phone || email || address) && <p className="guest-text">{t('guestStay.thanksContact')}</p>}
      <FacilityContact t={t} phone={phone} email={email} address={address} />
    </section>
  );
}
