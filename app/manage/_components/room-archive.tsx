'use client';

import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { archiveRoomAction } from '@/app/manage/rooms/actions';
import { Button } from '@/components/ui/button';
import { ActionResult } from './action-result';

/**
 * "Archive room" (no new stays from then on; refused while stays are to come, which the page lists
 * above it) or "Restore room".
 */
export function RoomArchiveButton({
  roomId,
  archived,
  blocked,
}: {
  roomId: string;
  archived: boolean;
  blocked: boolean;
}) {
  const t = useTranslations('rooms.archive');
  const [state, action, pending] = useActionState(archiveRoomAction, null);
  return (
    <form action={action} className="form" data-testid="room-archive-form">
      <input type="hidden" name="roomId" value={roomId} />
      <input type="hidden" name="archive" value={archived ? 'false' : 'true'} />
      <div>
        <Button
          type="submit"
          variant={archived ? 'secondary' : 'danger'}
          loading={pending}
          disabled={!archived && blocked}
          data-testid={archived ? 'room-restore' : 'room-archive'}
        >
          {archived ? t('restore') : t('archive')}
        </Button>
      </div>
      {state && (
        <ActionResult attempt={state.attempt} tone={state.ok ? 'success' : 'error'} testId="room-archive-result">
          {state.ok ? (state.data.archived ? t('archived') : t('restored')) : state.error.message}
        </ActionResult>
      )}
    </form>
  );
}
