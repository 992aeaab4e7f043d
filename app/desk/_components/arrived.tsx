import { useLocale, useTranslations } from 'next-intl';
import { Badge } from '@/components/ui/badge';
import { asDate, formatTimeToday } from '@/lib/i18n/formats';

/**
 * "Arrived 15:02": when the guest's code first opened the door, in the facility's zone — its day too when that
 * was not today there.
 */
export function Arrived({ at, zone, now = new Date() }: { at: Date | string; zone: string; now?: Date }) {
  const locale = useLocale();
  const t = useTranslations('day');
  const date = asDate(at);
  return (
    <Badge tone="success" data-testid="arrived">
      <time dateTime={date.toISOString()}>
        {t('arrived', { time: formatTimeToday(date, now, { locale, timeZone: zone }) })}
      </time>
    </Badge>
  );
}
