'use client';

import { useQueries } from '@tanstack/react-query';
import type { PublicFacility } from '@/lib/booking-site/public-facility';
import { Button } from '@/components/ui/button';
import { fill } from '@/lib/i18n/slots';
import { formatAmount } from '../_lib/format';
import { errorText } from './api';
import type { BookingWords } from './booking-words';
import { quoteQuery } from './queries';
import type { Choice } from './types';

type Props = {
  slug: string;
  roomTypes: PublicFacility['roomTypes'];
  choice: Choice;
  whenText: string;
  tag: string;
  onChoose: (roomTypeId: string) => void;
  onChangeDates: () => void;
  words: BookingWords;
};

/**
 * The room types for the chosen dates, each with its price for exactly those dates from the quotes
 * endpoint (one call per type, in parallel), its capacity and description; a type with no room free
 * says so and cannot be chosen.
 */
export function RoomStep({ slug, roomTypes, choice, whenText, tag, onChoose, onChangeDates, words }: Props) {
  const quotes = useQueries({ queries: roomTypes.map((type) => quoteQuery(slug, type.id, choice)) });

  if (roomTypes.length === 0)
    return (
      <p className="book-empty" role="status" data-testid="rooms-empty">
        {words.rooms.empty}
      </p>
    );

  const settled = quotes.every((q) => q.isSuccess);
  const noneFree = settled && quotes.every((q) => !q.data!.available);

  return (
    <div className="book-rooms">
      <p className="book-when">
        {fill(words.rooms.for, { when: whenText })}{' '}
        <Button size="compact" variant="ghost" onClick={onChangeDates}>
          {words.rooms.changeDates}
        </Button>
      </p>
      {noneFree && (
        <p className="book-empty" role="status" data-testid="rooms-none-free">
          {words.rooms.noneFree}
        </p>
      )}
      <ul className="book-room-list">
        {roomTypes.map((type, index) => {
          const quote = quotes[index]!;
          const available = quote.data?.available === true;
          return (
            <li
              key={type.id}
              className={`book-room${quote.data && !available ? ' book-room--unavailable' : ''}`}
              data-testid="room-type"
              data-room-type={type.id}
              data-available={quote.data ? String(available) : undefined}
            >
              {type.photos.length > 0 && (
                <ul className="book-room__photos" aria-label={type.name}>
                  {type.photos.map((photo, n) => (
                    <li key={photo.url}>
                      {/* eslint-disable-next-line @next/next/no-img-element -- the site's own small photos, cached for good */}
                      <img
                        src={photo.url}
                        alt={photo.alt || `${type.name} (${n + 1}/${type.photos.length})`}
                        width={320}
                        height={240}
                        loading="lazy"
                        decoding="async"
                      />
                    </li>
                  ))}
                </ul>
              )}
              <h3 className="book-room__name">{type.name}</h3>
              <p className="book-room__capacity">{fill(words.rooms.capacity, { count: String(type.capacity) })}</p>
              {type.description && <p className="book-room__description">{type.description}</p>}
              <div className="book-room__price" aria-live="polite">
                {quote.isPending && (
                  <span className="book-room__checking">
                    <span className="spinner" aria-hidden="true" /> {words.rooms.checking}
                  </span>
                )}
                {quote.isError && (
                  <span className="book-room__error" role="alert">
                    {errorText(quote.error, words.errors)}{' '}
                    <Button size="compact" onClick={() => void quote.refetch()}>
                      {words.errors.retry}
                    </Button>
                  </span>
                )}
                {quote.data &&
                  (available ? (
                    <strong data-testid="room-price">
                      {fill(words.rooms.price, {
                        amount: formatAmount(tag, quote.data.amountCents, quote.data.currency),
                      })}
                    </strong>
                  ) : (
                    <span className="book-room__none">
                      <span aria-hidden="true">× </span>
                      {words.rooms.unavailable}
                    </span>
                  ))}
              </div>
              {available && (
                <Button
                  variant="primary"
                  block
                  onClick={() => onChoose(type.id)}
                  aria-label={fill(words.rooms.choose, { name: type.name })}
                >
                  {words.rooms.chooseShort}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
