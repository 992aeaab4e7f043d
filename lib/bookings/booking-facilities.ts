import type { BookingUnit } from '../db/generated/enums';
import { withTenant } from '../db/tx';
import { timeOfDay } from './stay-window';

/** A facility as the desk books it: its zone, and its check-in/out times or its opening hours (`HH:MM` local). */
export type BookingFacility = {
  id: string;
  name: string;
  timeZone: string;
  bookingUnit: BookingUnit;
  checkInTime: string;
  checkOutTime: string;
  opensAt: string | null;
  closesAt: string | null;
};

/** Every facility of one tenant with how it is booked, by name. */
export async function listBookingFacilities({ tenantId }: { tenantId: string }): Promise<BookingFacility[]> {
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.facility.findMany({
      where: { tenantId },
      select: {
        id: true,
        name: true,
        timeZone: true,
        bookingUnit: true,
        checkInTime: true,
        checkOutTime: true,
        opensAt: true,
        closesAt: true,
      },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    }),
  );
  return rows.map((f) => ({
    ...f,
    checkInTime: timeOfDay(f.checkInTime),
    checkOutTime: timeOfDay(f.checkOutTime),
    opensAt: f.opensAt ? timeOfDay(f.opensAt) : null,
    closesAt: f.closesAt ? timeOfDay(f.closesAt) : null,
  }));
}
