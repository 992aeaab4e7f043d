import { notFound } from 'next/navigation';

/** Any address below /manage that no page serves: the section's own not-found page, inside its shell (signed-in staff only). */
export default function UnknownManageAddress() {
  notFound();
}
