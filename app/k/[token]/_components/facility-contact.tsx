import type { Translate } from '@/lib/i18n/locale';
import { mapLinkFor } from '@/lib/facilities/guest-info';

/** The property's phone (a tel: link), email (a mailto: link) and address (with a map link); nothing for what is not written. */
export function FacilityContact({
  t,
  phone,
  email = null,
  address,
  headingLevel = 2,
}: {
  t: Translate;
  phone: string | null;
  email?: string | null;
  address: string | null;
  headingLevel?: 2 | 3;
}) {
  if (!phone && !email && !address) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const map = mapLinkFor(address);
  return (
    <section className="guest-info" aria-labelledby="guest-contact" data-testid="guest-contact">
      <Heading id="guest-contact" className="guest-info__heading">
        {t('guestStay.contact')}
      </Heading>
      {phone && (
        <p>
          <a className="guest-link" href={`tel:${phone.replace(/[^\d+]/g, '')}`}>
            {t('guestStay.call', { phone })}
          </a>
        </p>
      )}
      {email && (
        <p>
          <a className="guest-link" href={`mailto:${email}`} data-testid="guest-contact-email">
            {t('guestStay.emailUs', { email })}
          </a>
        </p>
      )}
      {address && (
        <p className="guest-text">
          <span className="guest-info__label">{t('guestStay.address')}</span>
          {address}
          {map && (
            <>
              {' '}
              <a className="guest-link" href={map} target="_blank" rel="noopener noreferrer">
                {t('guestStay.openMap')}
              </a>
            </>
          )}
        </p>
      )}
    </section>
  );
}
