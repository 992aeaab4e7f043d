'use server';

import { z } from 'zod';
import { resolveIncidentByHand } from '@/lib/incidents/resolve-incident-by-hand';
import { acknowledgeLockDrift } from '@/lib/locks/acknowledge-drift';
import { staffAction } from '@/app/_server/action';

/** Marks one open incident of the current tenant resolved (a manager acknowledging it); already resolved is fine. */
export const resolveIncidentAction = staffAction(
  {
    name: 'resolveIncident',
    permission: 'incidents.view',
    input: z.object({ incidentId: z.uuid() }),
    revalidate: { path: '/manage/incidents' },
  },
  async ({ input: { incidentId }, tenantId }) => {
    await resolveIncidentByHand({ tenantId, incidentId });
    return null;
  },
);

/**
 * A manager acknowledges the codes not made by UnlockOS that a lock's drift incident names: the
 * incident resolves and does not come back (nor mail) until a different code appears (audited).
 */
export const acknowledgeDriftAction = staffAction(
  {
    name: 'acknowledgeDrift',
    permission: 'locks.manage',
    input: z.object({ incidentId: z.uuid() }),
    revalidate: { path: '/manage/incidents' },
  },
  async ({ input: { incidentId }, tenantId, actor }) => acknowledgeLockDrift({ tenantId, incidentId, actor }),
);
