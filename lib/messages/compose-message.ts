import { appBaseUrl, guestTokenFor, guestUrl } from '../auth/guest-links';
import { bookingCode } from '../booking-site/booking-code';
import { runInTransaction, sqlLiteral, statement, type Tx } from '../db/tx';
import { formatDateTime } from '../i18n/formats';
import { intlLocale, isLocale, translator, type Locale } from '../i18n/locale';
import { stayIcs } from '../stays/stay-ics';
import { renderMailTemplate } from './render-mail';

/** The columns of a message that composing and sending read. */
export type MessageRow = {
  id: string;
  tenant_id: string;
  reservation_id: string | null;
  incident_id: string | null;
  kind: 'key_link' | 'stay_changed' | 'incident_opened' | 'incident_raised' | 'booking_code';
  occasion: string;
  to_address: string | null;
  locale: string;
  status: 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';
  claimed_at: Date | null;
};

/** What goes out: everything nodemailer needs but the envelope's sender. */
export type ComposedMail = {
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: { filename: string; content: string; contentType: string }[];
};

/** A message that should not be sent (any more), with the reason kept on its row. */
export type Composition = { skip: string } | { mail: ComposedMail };

/** Why the same words load without next-intl's React runtime: the worker renders them. */
export function wordsOf(locale: string) {
  const lang: Locale = isLocale(locale) ? locale : 'en';
  return { lang, t: translator(lang) };
}

/**
 * The mail of one message, read inside the sender's transaction: a guest's message is composed from
 * the live reservation and its newest live guest link (a rotated link is never mailed), and skipped
 * when the stay was cancelled, checked out or is over, the guest deleted, or no link is live.
 */
export async function composeMessage(tx: Tx, message: MessageRow): Promise<Composition> {
  if (!message.to_address) return { skip: 'no_address' };
  if (message.kind === 'booking_code') return composeBookingCodeMail(tx, message, message.to_address);
  return message.reservation_id
    ? composeGuestMail(tx, message, message.reservation_id, message.to_address)
    : composeIncidentMail(tx, message, message.to_address);
}

async function composeGuestMail(tx: Tx, message: MessageRow, reservationId: string, to: string): Promise<Composition> {
  const [rows] = await runInTransaction(tx, [
    statement<{
      status: string;
      starts_at: Date;
      ends_at: Date;
      guest_id: string | null;
      guest_name: string | null;
      room_label: string;
      facility_name: string;
      time_zone: string;
      address: string | null;
      link_id: string | null;
      changes: number;
    }>(`select r.status::text, r.starts_at, r.ends_at, r.guest_id, g.name as guest_name, ro.label as room_label,
           f.name as facility_name, f.time_zone, f.address,
           (select gl.id from guest_links gl
             where gl.tenant_id = r.tenant_id and gl.reservation_id = r.id and gl.ended_at is null and gl.expires_at > now()
             order by gl.created_at desc limit 1) as link_id,
           (select count(*)::int from audit_events a
             where a.tenant_id = r.tenant_id and a.subject_id = r.id
               and a.action in ('reservation.moved', 'reservation.changed')) as changes
      from reservations r
      join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
      join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
      left join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
     where r.tenant_id = ${sqlLiteral(message.tenant_id, 'uuid')} and r.id = ${sqlLiteral(reservationId, 'uuid')}`),
  ]);
  const stay = rows[0];
  if (!stay) return { skip: 'reservation_gone' };
  if (stay.guest_id === null) return { skip: 'guest_deleted' };
  if (stay.status === 'cancelled' || stay.status === 'checked_out') return { skip: `reservation_${stay.status}` };
  if (stay.ends_at.getTime() <= Date.now()) return { skip: 'stay_over' };
  if (!stay.link_id) return { skip: 'no_live_link' };

  const url = guestUrl(guestTokenFor(stay.link_id));
  const { lang, t } = wordsOf(message.locale);
  const at = (date: Date) => formatDateTime(date, 'stamp', { locale: intlLocale(lang), timeZone: stay.time_zone });
  const vars = { facility: stay.facility_name, room: stay.room_label, from: at(stay.starts_at), to: at(stay.ends_at) };
  const which = message.kind === 'stay_changed' ? 'stayChanged' : 'keyLink';
  const { html, text } = await renderMailTemplate('GuestLinkEmail', {
    lang,
    url,
    words: {
      preview: t(`mail.${which}.preview`, vars),
      greeting: stay.guest_name ? t('mail.greeting', { name: stay.guest_name }) : t('mail.greetingNoName'),
      intro: t(`mail.${which}.intro`, vars),
      cta: t('mail.cta'),
      pinNote: t('mail.pinNote'),
      linkFallback: t('mail.linkFallback'),
      icsNote: t('mail.icsNote'),
      privateNote: t('mail.privateNote'),
      footer: t('mail.footer', { facility: stay.facility_name }),
    },
  });
  const ics = stayIcs({
    reservationId,
    sequence: stay.changes,
    startsAt: stay.starts_at,
    endsAt: stay.ends_at,
    summary: t('mail.icsSummary', { facility: stay.facility_name, room: stay.room_label }),
    location: stay.address,
    url,
  });
  return {
    mail: {
      to,
      subject: t(`mail.${which}.subject`, vars),
      html,
      text,
      attachments: [
        { filename: 'stay.ics', content: ics, contentType: 'text/calendar; charset=utf-8; method=PUBLISH' },
      ],
    },
  };
}

async function composeIncidentMail(tx: Tx, message: MessageRow, to: string): Promise<Composition> {
  const [rows] = await runInTransaction(tx, [
    statement<{ summary: string; tenant_name: string }>(`
    select i.summary, t.name as tenant_name from incidents i join tenants t on t.id = i.tenant_id
     where i.tenant_id = ${sqlLiteral(message.tenant_id, 'uuid')}
       and i.id = ${sqlLiteral(message.incident_id, 'uuid')}`),
  ]);
  const incident = rows[0];
  if (!incident) return { skip: 'incident_gone' };
  const level = Number(/:level:(\d+)/.exec(message.occasion)?.[1] ?? 1);
  const { lang, t } = wordsOf(message.locale);
  const vars = { summary: incident.summary, count: level };
  const opened = message.kind === 'incident_opened';
  const heading = opened ? t('mail.incident.opened', vars) : t('mail.incident.raised', vars);
  const { html, text } = await renderMailTemplate('LinkEmail', {
    lang,
    heading,
    cta: t('mail.incident.cta'),
    url: `${appBaseUrl()}/manage/incidents`,
    footer: t('mail.incident.footer', { tenant: incident.tenant_name }),
  });
  return {
    mail: {
      to,
      subject: opened ? t('mail.incident.openedSubject', vars) : t('mail.incident.raisedSubject', vars),
      html,
      text,
      attachments: [],
    },
  };
}

/**
 * The mail of a booking request's code, derived again from the request (never stored); skipped once the request
 * was confirmed, ended or its code expired.
 */
async function composeBookingCodeMail(tx: Tx, message: MessageRow, to: string): Promise<Composition> {
  const [rows] = await runInTransaction(tx, [
    statement<{ id: string; status: string; expired: boolean; facility_name: string }>(
      `select q.id, q.status::text as status, q.code_expires_at <= now() as expired, f.name as facility_name
         from messages m
         join booking_requests q on q.tenant_id = m.tenant_id and q.id = m.booking_request_id
         join facilities f on f.tenant_id = q.tenant_id and f.id = q.facility_id
        where m.tenant_id = ${sqlLiteral(message.tenant_id, 'uuid')} and m.id = ${sqlLiteral(message.id, 'uuid')}`,
    ),
  ]);
  const request = rows[0];
  if (!request) return { skip: 'request_gone' };
  if (request.status !== 'awaiting_code') return { skip: `request_${request.status}` };
  if (request.expired) return { skip: 'code_expired' };
  const { lang, t } = wordsOf(message.locale);
  const vars = { facility: request.facility_name };
  const { html, text } = await renderMailTemplate('CodeEmail', {
    lang,
    heading: t('mail.bookingCode.heading', vars),
    code: bookingCode(request.id),
    notes: [t('mail.bookingCode.expires'), t('mail.bookingCode.notYou')],
    footer: t('mail.footer', vars),
  });
  return { mail: { to, subject: t('mail.bookingCode.subject', vars), html, text, attachments: [] } };
}
