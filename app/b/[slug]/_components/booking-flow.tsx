'use client';

import { skipToken, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import type { PublicFacility } from '@/lib/booking-site/public-facility';
import { Button } from '@/components/ui/button';
import { formatDateTime, formatDateTimeRange } from '@/lib/i18n/formats';
import { fill } from '@/lib/i18n/slots';
import {
  addMonths,
  daysBetween,
  isDay,
  isMonth,
  latestCheckOut,
  MAX_NIGHTS,
  monthOf,
  monthRange,
  type DayAvailability,
} from '../_lib/calendar';
import { formatAmount, formatDay, pluralOf } from '../_lib/format';
import { minutesOf, timeSteps, zonedToUtc } from '../_lib/time-steps';
import { errorText, publicApi, retryOnce } from './api';
import type { BookingWords } from './booking-words';
import { MonthCalendar } from './month-calendar';
import { quoteQuery } from './queries';
import { periodOf, type BookingRequest, type Choice, type Confirmation, type GuestDetails } from './types';

type Props = {
  slug: string;
  facility: PublicFacility;
  /** The facility's today, as the server saw it. */
  today: string;
  locale: 'en' | 'ja';
  /** The formatting tag (en-GB, ja-JP). */
  tag: string;
  words: BookingWords;
  /** A first visit's days of this month and the next, read on the server (when it read them), and when. */
  initialDays?: DayAvailability[] | undefined;
  initialAt?: number | undefined;
};

// The steps after the calendar load when they are reached (or when the page opens on one): a first
// visit downloads the calendar only (docs/PERFORMANCE.md, booking site first-load JavaScript).
const HourPicker = dynamic(() => import('./hour-picker').then((m) => m.HourPicker));
const RoomStep = dynamic(() => import('./room-step').then((m) => m.RoomStep));
const DetailsStep = dynamic(() => import('./details-step').then((m) => m.DetailsStep));
const CodeStep = dynamic(() => import('./code-step').then((m) => m.CodeStep));

type Step = 'dates' | 'room' | 'details' | 'code';
const REDIRECT_DELAY_MS = 1_500;
const STEPS: Step[] = ['dates', 'room', 'details', 'code'];

/**
 * What the URL says has been picked, checked: a choice only when its dates (or times inside opening
 * hours) make sense, a room type only when the facility has it. The URL is the flow's state, so the
 * back button walks back through the steps and a link can be shared up to the details.
 */
function readUrl(params: URLSearchParams, facility: PublicFacility, today: string) {
  const month = params.get('m');
  const checkIn = params.get('in');
  const checkOut = params.get('out');
  const day = params.get('day');
  let choice: Choice | null = null;
  let picked: string | null = null;
  if (facility.unit === 'night') {
    if (isDay(checkIn) && checkIn >= today) {
      picked = checkIn;
      if (isDay(checkOut) && checkOut > checkIn && daysBetween(checkIn, checkOut) <= MAX_NIGHTS)
        choice = { unit: 'night', checkIn, checkOut };
    }
  } else if (isDay(day) && day >= today) {
    picked = day;
    const from = params.get('from');
    const to = params.get('to');
    const steps = timeSteps(facility.opensAt, facility.closesAt);
    if (from && to && steps.includes(from) && steps.includes(to) && minutesOf(to)! > minutesOf(from)!)
      choice = {
        unit: 'hour',
        day,
        from,
        to,
        startsAt: zonedToUtc(day, from, facility.timeZone),
        endsAt: zonedToUtc(day, to, facility.timeZone),
      };
  }
  const typeId = params.get('type');
  const roomType = choice ? (facility.roomTypes.find((t) => t.id === typeId) ?? null) : null;
  const requestId = roomType ? params.get('request') : null;
  const step: Step = !choice ? 'dates' : !roomType ? 'room' : !requestId ? 'details' : 'code';
  const shownMonth = isMonth(month) && month >= monthOf(today) ? month : monthOf(picked ?? today);
  return {
    month: shownMonth,
    picked,
    checkOut: choice?.unit === 'night' ? choice.checkOut : null,
    choice,
    roomType,
    requestId,
    step,
  };
}

const availabilityQuery = (slug: string, month: string) => ({
  queryKey: ['availability', slug, month],
  queryFn: ({ signal }: { signal: AbortSignal }) => {
    const { from, to } = monthRange(month);
    return publicApi<DayAvailability[]>(
      `/facilities/${encodeURIComponent(slug)}/availability?from=${from}&to=${to}`,
      undefined,
      signal,
    );
  },
  staleTime: 30_000,
  retry: retryOnce,
});

/**
 * The booking site's steps on one page: dates (a calendar; for hourly facilities a day and a start
 * and end), a room type with its price, the guest's details and terms, then the emailed code. Once
 * confirmed, an online payment goes to Stripe Checkout, anything else to the confirmation page.
 */
export function BookingFlow({ slug, facility, today, locale, tag, words, initialDays, initialAt }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const url = readUrl(new URLSearchParams(params.toString()), facility, today);
  const { choice, roomType, requestId, step } = url;
  const timeZone = facility.timeZone;

  const [details, setDetails] = useState<GuestDetails>({ name: '', email: '', phone: '', acceptTerms: false });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resentTo, setResentTo] = useState<string | null>(null);
  const [redirect, setRedirect] = useState<{ url: string; holdEnds: string | null } | null>(null);

  /** Moves to the URL with `patch` applied (null removes a parameter): a new history entry unless `replace`. */
  const go = (patch: Record<string, string | null>, replace = false) => {
    const next = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    const query = next.toString();
    const href = `${pathname}${query ? `?${query}` : ''}`;
    if (replace) router.replace(href, { scroll: false });
    else router.push(href, { scroll: false });
  };

  // Availability of the month shown and the next one (a stay may end there).
  const months = [url.month, addMonths(url.month, 1)];
  // Asked only while the calendar is shown; back on it, an answer under 30 s old is used as it is.
  const availability = useQueries({
    queries: months.map((m) => {
      const initial = initialDays?.filter((d) => d.date.startsWith(m));
      return {
        ...availabilityQuery(slug, m),
        enabled: step === 'dates',
        ...(initial && initial.length > 0 ? { initialData: initial, initialDataUpdatedAt: initialAt } : {}),
      };
    }),
  });
  const byDay = new Map<string, DayAvailability>();
  for (const q of availability) for (const d of q.data ?? []) byDay.set(d.date, d);
  const shown = availability[0]!;

  // The step heading takes focus when the step changes (not on the first render), and is announced.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const lastStep = useRef(step);
  useEffect(() => {
    if (lastStep.current === step) return;
    lastStep.current = step;
    headingRef.current?.focus();
  }, [step]);

  const nightsText = (n: number) => fill(words.nights[pluralOf(tag, n)], { count: String(n) });
  const whenText = !choice
    ? ''
    : choice.unit === 'night'
      ? `${fill(words.calendar.range, { from: formatDay(tag, choice.checkIn, 'medium'), to: formatDay(tag, choice.checkOut, 'medium') })} · ${nightsText(daysBetween(choice.checkIn, choice.checkOut))}`
      : formatDateTimeRange(choice.startsAt, choice.endsAt, 'stamp', { locale: tag, timeZone });

  const requestBody = () => ({
    roomTypeId: roomType!.id,
    ...periodOf(choice!),
    guest: {
      name: details.name.trim(),
      email: details.email.trim(),
      ...(details.phone.trim() ? { phone: details.phone.trim() } : {}),
    },
    locale,
    acceptTerms: true as const,
  });
  const sendRequest = () =>
    publicApi<BookingRequest>(`/facilities/${encodeURIComponent(slug)}/booking-requests`, requestBody());

  const request = useMutation({
    mutationFn: sendRequest,
    onSuccess: (data) => {
      setSentTo(details.email.trim());
      setResentTo(null);
      go({ request: data.id });
    },
  });
  const resend = useMutation({
    mutationFn: sendRequest,
    onSuccess: (data) => {
      confirm.reset();
      setResentTo(details.email.trim());
      go({ request: data.id }, true);
    },
  });
  const confirm = useMutation({
    mutationFn: (code: string) =>
      publicApi<Confirmation>(`/booking-requests/${encodeURIComponent(requestId!)}/confirm`, { code }),
    onSuccess: (data) => {
      if (data.paymentUrl) {
        setRedirect({
          url: data.paymentUrl,
          holdEnds: data.holdExpiresAt ? formatDateTime(data.holdExpiresAt, 'time', { locale: tag, timeZone }) : null,
        });
        // A moment to read until when the room is held before Checkout's page replaces this one.
        const url = data.paymentUrl;
        setTimeout(() => window.location.assign(url), REDIRECT_DELAY_MS);
      } else {
        router.push(`/b/${encodeURIComponent(slug)}/done?request=${encodeURIComponent(requestId!)}`);
      }
    },
  });

  // The chosen type's price for the summary: the room list's query, so usually already answered.
  const chosenQuote = roomType && choice ? quoteQuery(slug, roomType.id, choice) : null;
  const quote = useQuery({
    queryKey: chosenQuote?.queryKey ?? ['quote', slug, 'none'],
    queryFn: chosenQuote?.queryFn ?? skipToken,
    staleTime: 30_000,
    retry: retryOnce,
  });

  const stepIndex = STEPS.indexOf(step);
  const stepName = (s: Step) => (s === 'dates' && facility.unit === 'hour' ? words.steps.time : words.steps[s]);
  const headingText = {
    dates: stepName('dates'),
    room: words.rooms.heading,
    details: words.details.heading,
    code: words.code.heading,
  }[step];

  return (
    <div className="book-flow">
      <ol className="book-steps" aria-label={words.stepsLabel}>
        {STEPS.map((s, i) => (
          <li
            key={s}
            className={`book-steps__item${i < stepIndex ? ' book-steps__item--done' : ''}`}
            aria-current={i === stepIndex ? 'step' : undefined}
          >
            <span className="book-steps__num" aria-hidden="true">
              {i < stepIndex ? '✓' : i + 1}
            </span>
            <span className="book-steps__name">{stepName(s)}</span>
            {i < stepIndex && <span className="visually-hidden"> ({words.stepDone})</span>}
          </li>
        ))}
      </ol>
      <p className="visually-hidden" aria-live="polite" data-testid="book-step-announce">
        {fill(words.stepOf, { step: String(stepIndex + 1), total: String(STEPS.length), name: headingText })}
      </p>

      <section
        className="guest-card book-step"
        aria-labelledby="book-step-heading"
        data-step={step}
        data-testid="book-step"
      >
        <h2 id="book-step-heading" ref={headingRef} tabIndex={-1} className="book-step__heading">
          {headingText}
        </h2>

        {step === 'dates' && (
          <>
            <p className="book-instruction" aria-live="polite" data-testid="cal-instruction">
              {facility.unit === 'hour'
                ? words.calendar.pickDay
                : url.picked
                  ? fill(words.calendar.pickCheckOut, { date: formatDay(tag, url.picked, 'medium') })
                  : words.calendar.pickCheckIn}
            </p>
            {shown.isError ? (
              <div className="book-error" role="alert" data-testid="cal-error">
                <p>{errorText(shown.error, words.errors)}</p>
                <Button onClick={() => void shown.refetch()}>{words.errors.retry}</Button>
              </div>
            ) : (
              <MonthCalendar
                month={url.month}
                byDay={byDay}
                loading={shown.isPending}
                mode={facility.unit === 'night' && url.picked ? 'checkOut' : 'start'}
                checkIn={url.picked}
                checkOut={url.checkOut}
                latest={facility.unit === 'night' && url.picked ? latestCheckOut(url.picked, byDay) : null}
                today={today}
                tag={tag}
                weekStart={locale === 'ja' ? 0 : 1}
                words={words}
                onMonth={(delta) => go({ m: addMonths(url.month, delta) }, true)}
                onPick={(day) => {
                  if (facility.unit === 'hour') go({ day, from: null, to: null }, true);
                  else if (url.picked && day > url.picked) go({ out: day });
                  else go({ in: day, out: null }, true);
                }}
              />
            )}
            {facility.unit === 'hour' && url.picked && (
              <HourPicker
                key={url.picked}
                day={url.picked}
                today={today}
                timeZone={timeZone}
                opensAt={facility.opensAt}
                closesAt={facility.closesAt}
                initialFrom={params.get('from')}
                initialTo={params.get('to')}
                tag={tag}
                words={words}
                onShow={(from, to) => go({ from, to })}
              />
            )}
          </>
        )}

        {step === 'room' && choice && (
          <RoomStep
            slug={slug}
            roomTypes={facility.roomTypes}
            choice={choice}
            whenText={whenText}
            tag={tag}
            words={words}
            onChoose={(type) => go({ type })}
            onChangeDates={() => go({ out: null, from: null, to: null })}
          />
        )}

        {(step === 'details' || step === 'code') && roomType && (
          <dl className="guest-facts book-summary" data-testid="book-summary">
            <div>
              <dt>{words.details.room}</dt>
              <dd>{roomType.name}</dd>
            </div>
            <div>
              <dt>{words.details.when}</dt>
              <dd>{whenText}</dd>
            </div>
            <div>
              <dt>{words.details.price}</dt>
              <dd data-testid="book-summary-price">
                {quote.data?.available
                  ? formatAmount(tag, quote.data.amountCents, quote.data.currency)
                  : quote.isPending
                    ? words.rooms.checking
                    : quote.data
                      ? words.rooms.unavailable
                      : '—'}
              </dd>
            </div>
          </dl>
        )}

        {step === 'details' && (
          <>
            <DetailsStep
              details={details}
              onChange={setDetails}
              onSubmit={() => request.mutate()}
              submitting={request.isPending}
              error={request.error}
              termsText={facility.termsText}
              privacyText={facility.privacyText}
              words={words}
              onPickAnother={() => {
                request.reset();
                void queryClient.invalidateQueries({ queryKey: ['quote', slug] });
                go({ type: null }, true);
              }}
            />
            <p className="book-back">
              <Button variant="ghost" size="compact" onClick={() => go({ type: null })}>
                {words.details.changeRoom}
              </Button>
            </p>
          </>
        )}

        {step === 'code' && (
          <CodeStep
            email={sentTo}
            onConfirm={(code) => confirm.mutate(code)}
            confirming={confirm.isPending || confirm.isSuccess}
            confirmError={confirm.error}
            onResend={details.email ? () => resend.mutate() : null}
            resending={resend.isPending}
            resendError={resend.error}
            resentTo={resentTo}
            redirect={redirect}
            words={words}
            onStartAgain={() => {
              confirm.reset();
              go({ request: null }, true);
            }}
            onPickAnother={() => {
              confirm.reset();
              void queryClient.invalidateQueries({ queryKey: ['quote', slug] });
              void queryClient.invalidateQueries({ queryKey: ['availability', slug] });
              go({ request: null, type: null }, true);
            }}
          />
        )}
      </section>
    </div>
  );
}
