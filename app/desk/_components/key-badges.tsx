import { useTranslations } from 'next-intl';
import { Badge, type BadgeTone } from '@/components/ui/badge';

type KeyStatus = 'pre_issued' | 'active' | 'revoked' | 'expired';
type VendorSync = 'pending' | 'synced' | 'failed';
type KeyKind = 'guest' | 'staff' | 'backup';

const STATUS_BADGE: Record<KeyStatus, BadgeTone> = {
  pre_issued: 'info',
  active: 'success',
  revoked: 'danger',
  expired: 'neutral',
};

const SYNC_BADGE: Record<VendorSync, BadgeTone> = {
  pending: 'warning',
  synced: 'success',
  failed: 'danger',
};

const KIND_BADGE: Record<Exclude<KeyKind, 'guest'>, BadgeTone> = {
  backup: 'info',
  staff: 'neutral',
};

/**
 * A key's lifecycle status and, for a live key, whether the lock has it ("Activating…", "Active on
 * lock", "Lock error", or "No lock on this room" when there is no lock to program); when given a
 * kind other than a guest's, what the key is ("Backup code", "Staff code").
 */
export function KeyBadges({
  status,
  vendorSync,
  vendorError,
  kind = 'guest',
}: {
  status: KeyStatus;
  vendorSync: VendorSync;
  vendorError?: string | null;
  kind?: KeyKind;
}) {
  const t = useTranslations('key');
  const live = status === 'pre_issued' || status === 'active';
  const noLock = vendorSync === 'failed' && vendorError === 'no_lock_device';
  return (
    <span className="badge-row">
      {kind !== 'guest' && (
        <Badge tone={KIND_BADGE[kind]} data-testid="key-kind">
          {t(`kind.${kind}`)}
        </Badge>
      )}
      <Badge tone={STATUS_BADGE[status]} data-testid="key-status">
        {t(`status.${status}`)}
      </Badge>
      {live && (
        <Badge tone={SYNC_BADGE[vendorSync]} data-testid="key-sync">
          {noLock ? t('sync.noLock') : t(`sync.${vendorSync}`)}
        </Badge>
      )}
    </span>
  );
}
