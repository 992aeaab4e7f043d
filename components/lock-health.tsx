import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { Translate } from '@/lib/i18n/locale';

const OFFLINE_REASONS = ['device_offline', 'gateway_offline', 'no_gateway', 'missing'] as const;

/** Why the provider says the lock is offline, in words (a reason it did not name reads as "unknown"). */
export function offlineReasonText(reason: string, t: Translate): string {
  const known = OFFLINE_REASONS.find((r) => r === reason);
  return t(`locks.unreachable.${known ?? 'unknown'}`);
}

/** Whether a lock answers its provider: online, offline, or not known yet. */
export function OnlineBadge({ online, t }: { online: boolean | null; t: Translate }) {
  const [tone, word]: [BadgeTone, 'online' | 'offline' | 'unknown'] =
    online === null ? ['neutral', 'unknown'] : online ? ['success', 'online'] : ['danger', 'offline'];
  return (
    <Badge tone={tone} data-testid="lock-online" data-online={word}>
      {t(`locks.online.${word}`)}
    </Badge>
  );
}
