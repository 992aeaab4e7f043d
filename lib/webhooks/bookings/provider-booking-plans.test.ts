import { expect, it } from 'vitest';
import { adminClient, createBookableTenant } from '../../../tooling/testing/fixtures';

// A provider's create checks the inbox for a later cancel: with a tenant's long history of webhook
// events, that check must be an index lookup, not a scan of that history.
// auto_explain shows the plans of the statements inside app_create_provider_booking, past the five
// custom plans PL/pgSQL makes before it settles on a generic one.
it('checks the inbox for a later cancel through its index, whatever the tenant’s history', async () => {
  const { tenantId } = await createBookableTenant({ rooms: 1 });
  const admin = await adminClient();
  try {
    await admin.query(
      // A history already handed to the queue (queued_at): left unqueued, it would be the relay's work
      // for any test file this worker runs later (lib/webhooks/relay.test.ts relays the oldest first).
      `insert into webhook_events (tenant_id, provider, type, dedupe_key, payload, provider_created_at, queued_at)
       select $1, 'calendly', 'invitee.created', 'history-' || g, '{}'::jsonb, now(), now() from generate_series(1, 20000) g`,
      [tenantId],
    );
    await admin.query('analyze webhook_events');
    await admin.query(`load 'auto_explain'`);
    await admin.query(`set auto_explain.log_min_duration = 0`);
    await admin.query(`set auto_explain.log_nested_statements = on`);
    await admin.query(`set auto_explain.log_level = notice`);
    const plans: string[] = [];
    admin.on('notice', (notice) => plans.push(notice.message ?? ''));
    for (let i = 0; i < 7; i++) {
      plans.length = 0;
      const { rows } = await admin.query(
        `select outcome from app_create_provider_booking($1, 'calendly', $2, $3, 'no-such-event-type', now(),
           gen_random_uuid(), gen_random_uuid(), 'Guest', null, '{}'::jsonb, 'calendly:test', 'Calendly')`,
        [tenantId, `ref-${i}`, `cancel-${i}`],
      );
      expect(rows).toEqual([{ outcome: 'unmapped_event_type' }]);
    }
    // The booking sources are a tenant's few mappings: the planner may scan that small table, as it should.
    const inbox = plans.find((plan) => plan.includes('from webhook_events e'));
    expect(inbox).toContain('Index Scan using webhook_events_dedupe_per_tenant');
    expect(plans.join('\n')).not.toContain('Seq Scan on webhook_events');
  } finally {
    await admin.end();
  }
});
