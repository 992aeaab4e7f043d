'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId, useState } from 'react';
import {
  addIcalFeedAction,
  fetchIcalFeedNowAction,
  removeIcalFeedAction,
  rotateIcalUrlAction,
} from '@/app/manage/rooms/actions';
import { Button } from '@/components/ui/button';
import { ActionInput } from '@/components/ui/action-field';
import { Field, Input, Select } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { ActionResult } from './action-result';
import styles from './setup.module.css';

export type RoomIcalFeed = {
  id: string;
  channelLabel: string;
  host: string;
  lastFetchedAt: string | null;
  lastSuccessAt: string | null;
  failures: number;
  lastError: string | null;
  stays: number;
};

/** One import feed: its channel and host, how its last fetch went, "fetch now" and "stop importing". */
function FeedRow({ feed, when }: { feed: RoomIcalFeed; when: (iso: string) => string }) {
  const t = useTranslations('rooms.ical');
  const [fetched, fetchNow, fetching] = useActionState(fetchIcalFeedNowAction, null);
  const [removed, remove, removing] = useActionState(removeIcalFeedAction, null);
  const status = !feed.lastFetchedAt
    ? t('neverFetched')
    : feed.failures > 0
      ? t('failing', { count: feed.failures, reason: feed.lastError ?? '' })
      : t('fetchedAt', { when: when(feed.lastSuccessAt ?? feed.lastFetchedAt) });
  return (
    <li className={styles.feed} data-testid="ical-feed">
      <div>
        <strong>{feed.channelLabel}</strong> <span className="muted">{feed.host}</span>
        <p className={feed.failures > 0 ? undefined : 'muted'} data-testid="ical-feed-status">
          {status} · {t('stays', { count: feed.stays })}
        </p>
      </div>
      <form action={fetchNow}>
        <input type="hidden" name="feedId" value={feed.id} />
        <Button type="submit" variant="secondary" loading={fetching} data-testid="ical-feed-fetch">
          {t('fetchNow')}
        </Button>
      </form>
      <form action={remove}>
        <input type="hidden" name="feedId" value={feed.id} />
        <Button type="submit" variant="ghost" loading={removing} data-testid="ical-feed-remove">
          {t('remove', { channel: feed.channelLabel })}
        </Button>
      </form>
      {fetched && (
        <ActionResult attempt={fetched.attempt} tone={fetched.ok ? 'success' : 'error'} testId="ical-feed-fetch-result">
          {fetched.ok ? t('queued') : fetched.error.message}
        </ActionResult>
      )}
      {removed && !removed.ok && (
        <ActionResult attempt={removed.attempt} tone="error" testId="ical-feed-remove-result">
          {removed.error.message}
        </ActionResult>
      )}
    </li>
  );
}

type FeedTarget = { roomId: string } | { roomTypeId: string };

/**
 * The channels' feeds a room or a room type imports (each UID a stay, fetched every few minutes; a room type's on the
 * first of its rooms free for the dates), with "add", "fetch now" and "stop importing".
 */
export function IcalImport({
  target,
  feeds,
  locale,
  timeZone,
  lead,
}: {
  target: FeedTarget;
  feeds: RoomIcalFeed[];
  locale: string;
  timeZone: string;
  lead: string;
}) {
  const t = useTranslations('rooms.ical');
  const id = useId();
  const [added, add, adding] = useActionState(addIcalFeedAction, null);
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const when = (iso: string) => format.format(new Date(iso));

  return (
    <div className="form" data-testid="ical-import">
      <h3>{t('importTitle')}</h3>
      <p className="muted">{lead}</p>
      {feeds.length === 0 ? (
        <p className="muted" data-testid="ical-feeds-empty">
          {t('empty')}
        </p>
      ) : (
        <ul className={styles.feeds} data-testid="ical-feeds">
          {feeds.map((feed) => (
            <FeedRow key={feed.id} feed={feed} when={when} />
          ))}
        </ul>
      )}
      <form action={add} noValidate className="form" data-testid="ical-feed-form" key={added?.ok ? added.attempt : 0}>
        {'roomId' in target ? (
          <input type="hidden" name="roomId" value={target.roomId} />
        ) : (
          <input type="hidden" name="roomTypeId" value={target.roomTypeId} />
        )}
        <div className={styles.grid}>
          <Field id={`${id}-channel`} label={t('channel')}>
            {(control) => (
              <Select {...control} name="channel" defaultValue="airbnb" data-testid="ical-feed-channel">
                <option value="airbnb">Airbnb</option>
                <option value="booking">Booking.com</option>
                <option value="vrbo">VRBO</option>
                <option value="other">{t('otherChannel')}</option>
              </Select>
            )}
          </Field>
          <ActionInput
            state={added}
            id={`${id}-url`}
            name="url"
            label={t('url')}
            stored=""
            type="url"
            inputMode="url"
            autoComplete="off"
            required
            hint={t('urlHint')}
            data-testid="ical-feed-url"
          />
        </div>
        <div className="form__submit-row">
          <Button variant="primary" type="submit" loading={adding} data-testid="ical-feed-add">
            {t('add')}
          </Button>
        </div>
      </form>
      {added && (
        <ActionResult attempt={added.attempt} tone={added.ok ? 'success' : 'error'} testId="ical-feed-result">
          {added.ok ? t('added') : added.error.message}
        </ActionResult>
      )}
    </div>
  );
}

/**
 * A room's calendar sync: the channels' feeds it imports and the secret URL of its own busy periods to paste into
 * Airbnb or Booking.com, with copy and rotate.
 */
export function RoomIcal({
  roomId,
  feeds,
  exportUrl,
  locale,
  timeZone,
}: {
  roomId: string;
  feeds: RoomIcalFeed[];
  exportUrl: string;
  locale: string;
  timeZone: string;
}) {
  const t = useTranslations('rooms.ical');
  const id = useId();
  const [rotated, rotate, rotating] = useActionState(rotateIcalUrlAction, null);
  const [copied, setCopied] = useState(false);
  const url = rotated?.ok ? rotated.data.url : exportUrl;

  return (
    <div className="form" data-testid="room-ical">
      <IcalImport target={{ roomId }} feeds={feeds} locale={locale} timeZone={timeZone} lead={t('importLead')} />

      <h3>{t('exportTitle')}</h3>
      <p className="muted">{t('exportLead')}</p>
      <Field id={`${id}-export`} label={t('exportUrl')}>
        {(control) => (
          <Input
            {...control}
            mono
            readOnly
            value={url}
            data-testid="ical-export-url"
            onFocus={(e) => e.target.select()}
          />
        )}
      </Field>
      <div className="form__submit-row">
        <Button
          type="button"
          variant="secondary"
          data-testid="ical-export-copy"
          onClick={() => {
            void navigator.clipboard?.writeText(url).then(() => setCopied(true));
          }}
        >
          {copied ? t('copied') : t('copy')}
        </Button>
        <form action={rotate}>
          <input type="hidden" name="roomId" value={roomId} />
          <Button type="submit" variant="ghost" loading={rotating} data-testid="ical-export-rotate">
            {t('rotate')}
          </Button>
        </form>
      </div>
      {rotated && (
        <ActionResult attempt={rotated.attempt} tone={rotated.ok ? 'success' : 'error'} testId="ical-export-rotated">
          {rotated.ok ? t('rotated') : rotated.error.message}
        </ActionResult>
      )}
      <Notice tone="info" announce={false}>
        {t('exportNote')}
      </Notice>
    </div>
  );
}
