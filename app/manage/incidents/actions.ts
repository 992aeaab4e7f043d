'use server';

import { z } from 'zod';
import { resolveIncidentByHand } from '@/lib/alerts/resolve-incident-by-hand';
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
