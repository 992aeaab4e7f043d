import { guestUrl } from '../auth/guest-links';
import { stayIcs } from '../stays/stay-ics';
import { getGuestStay } from './get-guest-key';

export type GuestStayIcsWords = {
  summary: (values: { facility: string; room: string }) => string;
  description: (values: { url: string }) => string;
};

/**
 * The .ics of the stay a guest link opens, for the guest's calendar: the room, the window, the
 * property's address and the link back to the key page — never a PIN (a PIN changes; the page is
 * where the live one is). `null` wherever the page is a 404, and for a stay that ended.
 */
export async function guestStayIcs(token: string, words: GuestStayIcsWords): Promise<string | null> {
  const stay = await getGuestStay(token);
  if (!stay) return null;
  const url = guestUrl(token);
  return stayIcs({
    reservationId: stay.reservationId,
    startsAt: stay.startsAt,
    endsAt: stay.endsAt,
    summary: words.summary({ facility: stay.facilityName, room: stay.roomLabel }),
    location: stay.facility.address,
    description: words.description({ url }),
    url,
    domain: new URL(url).hostname,
  });
}
