import { randomBytes } from 'node:crypto';
import ical, { ICalCalendarMethod } from 'ical-generator';
import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, runStatements, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { instantToZonedLocal } from '../time/zoned-local';

const TOKEN = /^[A-Za-z0-9_-]{32,100}$/;

const newToken = () => randomBytes(32).toString('base64url');

/** The public address of a room's feed (APP_URL, as guest links use). */
export function icalUrlOf(token: string): string {
  const base = (process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
  return `${base}/ical/${token}.ics`;
}

/**
 * The secret URL of a room's busy periods (`GET /rooms/{id}/ical-url`), made the first time it is asked for; another
 * tenant's room is `not_found`. Two first asks at once get the same URL (the primary key decides).
 */
export async function roomIcalUrl({
  tenantId,
  roomId,
}: {
  tenantId: string;
  roomId: string;
}): Promise<{ url: string }> {
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<{ token: string }>(
      `with room as (select tenant_id, id from rooms where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(roomId, 'uuid')}),
            made as (insert into room_ical_exports (tenant_id, room_id, token)
                     select tenant_id, id, ${sqlLiteral(newToken(), 'text')} from room
                     on conflict (tenant_id, room_id) do nothing returning token)
       select token from made
       union all
       select e.token from room_ical_exports e join room on e.tenant_id = room.tenant_id and e.room_id = room.id
        where not exists (select 1 from made)`,
    ),
  ]);
  const token = rows[0]?.token;
  if (!token) throw new AppError('not_found', 'No such room.');
  return { url: icalUrlOf(token) };
}

/** A new secret URL for a room's feed: the old one stops working at once; audited `room.ical_url_rotated`. */
export async function rotateRoomIcalUrl(input: {
  tenantId: string;
  roomId: string;
  actor: Actor;
}): Promise<{ url: string }> {
  const { tenantId, roomId, actor } = input;
  const token = newToken();
  await asService({ tenantId }, async (tx) => {
    const room = await tx.room.findFirst({ where: { tenantId, id: roomId }, select: { label: true } });
    if (!room) throw new AppError('not_found', 'No such room.');
    await tx.roomIcalExport.upsert({
      where: { tenantId_roomId: { tenantId, roomId } },
      create: { tenantId, roomId, token },
      update: { token, createdAt: new Date() },
    });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'room.ical_url_rotated',
      subject: { type: 'room', id: roomId },
      metadata: { room: room.label },
    });
  });
  return { url: icalUrlOf(token) };
}

type BusyRow = { id: string; starts_at: Date; ends_at: Date };

/**
 * The RFC 5545 feed a token opens (null for an unknown or rotated one): the room's stays from 30 days ago to two years
 * ahead — held, confirmed and checked in — as "Reserved" events without any guest data; a night facility's as all-day
 * events (check-in day to check-out day, DTEND exclusive, as the channels read them), an hourly one's at their times.
 */
export async function exportFeed(token: string): Promise<string | null> {
  if (!TOKEN.test(token)) return null;
  const [rooms] = await runStatements({ role: 'app_service' }, [
    statement<{ tenant_id: string; room_id: string }>(
      `select tenant_id, room_id from app_ical_export_room(${sqlLiteral(token, 'text')})`,
    ),
  ]);
  const room = rooms[0];
  if (!room) return null;
  const tenant = sqlLiteral(room.tenant_id, 'uuid');
  const roomLiteral = sqlLiteral(room.room_id, 'uuid');
  const [facilities, busy] = await runStatements({ role: 'app_service', tenantId: room.tenant_id }, [
    statement<{ name: string; time_zone: string; unit: 'night' | 'hour' }>(
      `select f.name, f.time_zone, f.booking_unit::text as unit from rooms r
         join facilities f on f.tenant_id = r.tenant_id and f.id = r.facility_id
        where r.tenant_id = ${tenant} and r.id = ${roomLiteral}`,
    ),
    statement<BusyRow>(
      `select id, starts_at, ends_at from reservations
        where tenant_id = ${tenant} and room_id = ${roomLiteral}
          and status in ('held', 'confirmed', 'checked_in')
          and ends_at > now() - interval '30 days' and starts_at < now() + interval '2 years'
        order by starts_at, id`,
    ),
  ]);
  const facility = facilities[0];
  if (!facility) return null;
  return busyCalendar(facility, busy);
}

/** The feed's text: one "Reserved" event per stay, identified by the stay so a channel sees moves as moves. */
export function busyCalendar(
  facility: { name: string; time_zone: string; unit: 'night' | 'hour' },
  busy: BusyRow[],
): string {
  const calendar = ical({
    name: `${facility.name} — busy`,
    prodId: { company: 'UnlockOS', product: 'busy', language: 'EN' },
  });
  calendar.method(ICalCalendarMethod.PUBLISH);
  const day = (at: Date) => instantToZonedLocal(at, facility.time_zone).slice(0, 10);
  for (const stay of busy) {
    const stamp = new Date();
    if (facility.unit === 'night') {
      const start = day(stay.starts_at);
      let end = day(stay.ends_at);
      // A stay that starts and ends on one day still blocks it.
      if (end <= start) end = nextDay(start);
      calendar.createEvent({
        id: `${stay.id}@unlockos`,
        start: dateOnly(start),
        end: dateOnly(end),
        allDay: true,
        summary: 'Reserved',
        stamp,
      });
    } else {
      calendar.createEvent({
        id: `${stay.id}@unlockos`,
        start: stay.starts_at,
        end: stay.ends_at,
        summary: 'Reserved',
        stamp,
      });
    }
  }
  return calendar.toString();
}

/** A calendar date as a Date at UTC midnight: ical-generator writes an all-day value's own year, month and day. */
function dateOnly(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
