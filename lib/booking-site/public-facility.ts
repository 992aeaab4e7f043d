/**
 * STUB until the public booking API lands on main: a fixed demo facility so the booking site
 * (app/b/[slug]) can be built against API.md's contract. Main's version replaces this file.
 */

export type PublicRoomType = { id: string; name: string; description: string; capacity: number };

/** A published facility as `GET /api/public/facilities/{slug}` returns it (`data`). */
export type PublicFacility = {
  name: string;
  timeZone: string;
  unit: 'night' | 'hour';
  checkInTime: string;
  checkOutTime: string;
  currency: string;
  payment: 'none' | 'online' | 'at_property';
  roomTypes: PublicRoomType[];
  opensAt?: string;
  closesAt?: string;
  termsText: string;
  privacyText: string;
};

const DEMO: PublicFacility = {
  name: 'Demo Hotel',
  timeZone: 'Asia/Tokyo',
  unit: 'night',
  checkInTime: '15:00',
  checkOutTime: '11:00',
  currency: 'jpy',
  payment: 'online',
  roomTypes: [
    { id: '00000000-0000-4000-8000-000000000001', name: 'Twin', description: 'Two single beds.', capacity: 2 },
    { id: '00000000-0000-4000-8000-000000000002', name: 'Family', description: 'Room for four.', capacity: 4 },
  ],
  termsText: 'Demo terms.',
  privacyText: 'Demo privacy policy.',
};

/** The published facility at `slug`, or null (unknown or unpublished). */
export async function getPublicFacility(slug: string): Promise<PublicFacility | null> {
  if (slug === 'demo') return DEMO;
  if (slug === 'demo-hourly')
    return { ...DEMO, name: 'Demo Rooms by the Hour', unit: 'hour', opensAt: '09:00', closesAt: '21:00' };
  return null;
}
