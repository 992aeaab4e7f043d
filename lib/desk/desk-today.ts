import { runStatements } from '../db/tx';
import { liveKeysStatement, type LiveKey } from '../keys/live-keys-of';
import { checkInLockProblemsStatement, type CheckInLockProblem } from '../locks/check-in-lock-problems';
import { offlineCodesStatement, type OfflineCodeStillValid } from '../keys/offline-codes-still-valid';
import { tenantTimeZoneStatement } from '../rooms/list-facilities';
import { checkInWindowsStatement, type CheckInWindow } from '../stays/check-in-windows';
import { deskDayStatement, deskDayWindow, type DeskDay, type DeskScope } from './desk-day';
import { deskSyncStatement, type DeskSyncState } from './desk-sync-state';
import { deskGuestMessagesStatement, type DeskGuestMessage } from './guest-messages';

export type DeskToday = {
  /** The zone the page names (`tenantTimeZone`); each stay is judged by its own facility's. */
  zone: string;
  day: DeskDay;
  /** Every reservation on the page, once: what the open page watches. */
  ids: string[];
  keys: Map<string, LiveKey>;
  windows: Map<string, CheckInWindow>;
  offlineCodes: OfflineCodeStillValid[];
  sync: DeskSyncState;
  /** Arrivals whose new PIN may not reach the door (the desk is warned before checking them in). */
  lockProblems: Map<string, CheckInLockProblem[]>;
  /** What guests of the day's stays sent the desk from their links, newest first. */
  guestMessages: DeskGuestMessage[];
};

/**
 * What the desk's arrivals page shows, as the tenant's staff, in TWO round trips (two read
 * transactions): the zone and the day's stays, then for those stays their live keys, the arrivals'
 * check-in windows, the in-house stays' offline codes still valid, the sync state the open page
 * polls from, and the arrivals' lock problems. Through the models it took 37 round trips in seven transactions.
 */
export async function readDeskToday({ tenantId, userId, now = new Date() }: DeskScope): Promise<DeskToday> {
  const scope = { role: 'app_authenticated', tenantId, userId } as const;
  const [zone, day] = await runStatements(scope, [
    tenantTimeZoneStatement(tenantId),
    deskDayStatement({ tenantId, now }),
  ]);
  const ids = [...new Set([...day.arrivals, ...day.inHouse, ...day.departures].map((r) => r.id))];
  const arrivals = day.arrivals.map((r) => r.id);
  const [keys, windows, offlineCodes, sync, lockProblems, guestMessages] = await runStatements(scope, [
    liveKeysStatement({ tenantId, reservationIds: ids }),
    checkInWindowsStatement({ tenantId, reservationIds: arrivals }),
    // Read again after a check-in revalidates the page: the panel then names a superseded offline code.
    offlineCodesStatement({ tenantId, reservationIds: day.inHouse.map((r) => r.id), now }),
    deskSyncStatement({ tenantId, reservationIds: ids, window: deskDayWindow(now) }),
    checkInLockProblemsStatement({ tenantId, reservationIds: arrivals }),
    deskGuestMessagesStatement({ tenantId, reservationIds: ids }),
  ]);
  return { zone, day, ids, keys, windows, offlineCodes, sync, lockProblems, guestMessages };
}
