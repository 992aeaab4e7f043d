import type { ComponentProps } from 'react';
import { useTranslations } from 'next-intl';
import { Badge, type BadgeTone } from '@/components/ui/badge';

type ReservationStatus = 'held' | 'confirmed' | 'checked_in' | 'checked_out' | 'cancelled';

const STATUS_BADGE: Record<ReservationStatus, BadgeTone> = {
  held: 'warning',
  confirmed: 'info',
  checked_in: 'success',
  checked_out: 'neutral',
  cancelled: 'danger',
};

/** A reservation's status as a badge, one tone per status on every desk page. */
export function ReservationStatusBadge({
  status,
  ...props
}: { status: ReservationStatus } & Omit<ComponentProps<typeof Badge>, 'tone' | 'children'>) {
  const t = useTranslations('reservation.status');
  return (
    <Badge tone={STATUS_BADGE[status]} {...props}>
      {t(status)}
    </Badge>
  );
}
