import 'server-only';
import { z } from 'zod';
import { AUDIT_ACTION_GROUPS, AUDIT_ACTIONS, auditActionQuery } from '@/lib/audit/audit-filters';
import type { AuditFilters } from '@/lib/audit/list-audit-events';
import { invalidRequest } from '@/lib/api/http';
import { can } from '@/lib/auth/permissions';
import type { StaffContext } from '@/lib/auth/staff';
import { AppError } from '@/lib/errors';
import { getStaff } from '@/app/_server/staff';

export const AUDIT_PAGE_SIZE = 50;

const ZAuditQuerySchema = z.object({
  action: z.enum([...AUDIT_ACTIONS, ...AUDIT_ACTION_GROUPS]).optional(),
  actor: z.string().trim().min(1).max(200).optional(),
  subjectId: z.uuid().optional(),
  roomId: z.uuid().optional(),
  from: z.iso
    .datetime({ offset: true })
    .transform((s) => new Date(s))
    .optional(),
  to: z.iso
    .datetime({ offset: true })
    .transform((s) => new Date(s))
    .optional(),
  cursor: z.string().min(1).max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(AUDIT_PAGE_SIZE),
});

/** The signed-in staff member allowed to read the audit log, else 401 `unauthorized` / 403 `forbidden`. */
export async function requireAuditReader(): Promise<StaffContext> {
  const staff = await getStaff();
  if (!staff) throw new AppError('unauthorized', 'Sign in to read the audit log.');
  if (!can(staff.current.role, 'audit.view')) throw new AppError('forbidden', 'Your role may not read the audit log.');
  return staff;
}

/**
 * The filters, cursor and page size of an events or export request; empty parameters mean "not set", and an action
 * group (`door.*`) means any of its actions.
 */
export function parseAuditQuery(url: string): AuditFilters & { cursor?: string; limit: number } {
  const given = Object.fromEntries([...new URL(url).searchParams].filter(([, value]) => value !== ''));
  const parsed = ZAuditQuerySchema.safeParse(given);
  if (!parsed.success) throw invalidRequest(parsed.error);
  const { action, ...rest } = parsed.data;
  return { ...rest, ...auditActionQuery(action) };
}
