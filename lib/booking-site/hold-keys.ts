import { createHash } from 'node:crypto';

// Issue 43.4: what one client address and one mailbox can hold unpaid at a facility is bounded in PostgreSQL
// (app_confirm_booking_request); these are the keys it counts by. One mailbox is one key however its address is
// written: case, a `+tag`, and — where the provider ignores them — dots. The keys are sha-256 hashes, so a booking
// request keeps no address in the clear once its guest's details are gone.

/** Providers whose mailboxes ignore dots in the local part (and their other names). */
const DOTLESS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/** The mailbox an email address delivers to: lower case, no `+tag`, no dots where the provider ignores them. */
export function normalMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1).replace(/\.$/, '');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS[domain];
  if (dotless) {
    domain = dotless;
    local = local.replaceAll('.', '');
  }
  return `${local}@${domain}`;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** The key one mailbox's holds are counted by. */
export function mailboxKey(email: string): string {
  return sha256(`mailbox:${normalMailbox(email)}`);
}

/** The key one client address's holds are counted by; null when the address is not known (nothing to count by). */
export function addressKey(address: string): string | null {
  const value = address.trim().toLowerCase();
  if (!value || value === 'unknown') return null;
  return sha256(`address:${value}`);
}
