import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTenantGraph } from '../../tooling/testing/fixtures';
import { citusViolations } from './citus-rules';
import { COORDINATOR_TABLES, CROSS_TENANT_FUNCTIONS, REFERENCE_TABLES, TENANT_TABLES } from './table-classes';

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

describe("the schema keeps Citus's rules (DESIGN.md, Scaling out)", () => {
  it('every table is classified and every tenant table, foreign key and function keeps to its tenant', async () => {
    const violations = await citusViolations(admin);
    expect(violations, `the schema breaks Citus's rules:\n${violations.join('\n')}`).toEqual([]);
  });

  it('every classification and allow-list entry says why', () => {
    for (const reason of [...Object.values(REFERENCE_TABLES), ...Object.values(COORDINATOR_TABLES)])
      expect(reason.length).toBeGreaterThan(20);
    for (const { reason } of Object.values(CROSS_TENANT_FUNCTIONS)) expect(reason.length).toBeGreaterThan(20);
  });
});

describe('the rules check', () => {
  // Schema changes applied in a transaction that is rolled back.
  async function violationsAfter(ddl: string): Promise<string[]> {
    await admin.query('begin');
    try {
      await admin.query(ddl);
      return await citusViolations(admin);
    } finally {
      await admin.query('rollback');
    }
  }

  // The broken schema must not depend on the rows other test files left in this database: the index
  // is partial and the foreign keys are not validated, which the catalog still reports.
  it('reports an unclassified table, a global unique, a primary key and a foreign key without the tenant', async () => {
    const violations = await violationsAfter(`
      create table ledger (id uuid primary key);
      create unique index rooms_label_everywhere on rooms (label) where false;
      alter table reservations drop constraint reservations_no_overlap;
      alter table reservations add constraint reservations_no_overlap exclude using gist
        (room_id with =, tstzrange(starts_at, ends_at) with &&) where (status <> 'cancelled');
      alter table access_keys add column stray_guest uuid;
      alter table access_keys add constraint access_keys_stray_guest_fkey
        foreign key (tenant_id, stray_guest) references guests (id, tenant_id) not valid;
      alter table messages add constraint messages_heartbeat_fkey
        foreign key (occasion) references worker_heartbeats (worker_id) not valid;
      create function app_count_guests() returns bigint language sql as $$ select count(*) from guests $$;
    `);
    expect(violations).toEqual(
      expect.arrayContaining([
        'ledger: not classified (lib/db/table-classes.ts: tenant, reference or coordinator)',
        'rooms: unique index rooms_label_everywhere does not include tenant_id',
        'reservations: exclusion constraint reservations_no_overlap does not include tenant_id',
        'access_keys: foreign key access_keys_stray_guest_fkey → guests does not pair tenant_id with tenant_id',
        'messages: foreign key messages_heartbeat_fkey → worker_heartbeats: a tenant table refers to a coordinator table',
        'function app_count_guests: reads guests without p_tenant_id and is not on the allow-list',
      ]),
    );
  });

  it('reports a key that leaves tenant_id out, an exclusion without tenant_id =, and a reference table pointing at a tenant', async () => {
    const violations = await violationsAfter(`
      create table ledger (tenant_id uuid, id uuid, room_id uuid, during tstzrange,
        primary key (id),
        exclude using gist (tenant_id with <>, room_id with =, during with &&));
      alter table users add column room_tenant uuid, add column favourite_room uuid,
        add constraint users_favourite_room_fkey foreign key (room_tenant, favourite_room) references rooms (tenant_id, id);
    `);
    expect(violations).toEqual(
      expect.arrayContaining([
        'users: foreign key users_favourite_room_fkey → rooms: a reference table refers to a tenant table',
      ]),
    );
    await admin.query('begin');
    try {
      await admin.query(`create table ledger (tenant_id uuid, id uuid, room_id uuid, during tstzrange,
        primary key (id), exclude using gist (tenant_id with <>, room_id with =, during with &&))`);
      const found = await citusViolations(admin, {
        tenant: [...TENANT_TABLES, 'ledger'],
        reference: REFERENCE_TABLES,
        coordinator: COORDINATOR_TABLES,
        functions: CROSS_TENANT_FUNCTIONS,
      });
      expect(found).toEqual(
        expect.arrayContaining([
          'ledger: tenant table without tenant_id uuid not null (has uuid null)',
          'ledger: primary key ledger_pkey does not include tenant_id',
          'ledger: exclusion constraint ledger_tenant_id_room_id_during_excl does not compare tenant_id with =',
        ]),
      );
    } finally {
      await admin.query('rollback');
    }
  });
});

describe('the global lookup tables stay in step', () => {
  it('a guest link, an API key and a payment intent are found by their global value, and gone with their row', async () => {
    const graph = await createTenantGraph(admin, 'Lookups');
    const link = await admin.query<{ tenant_id: string; guest_link_id: string }>(
      `select l.tenant_id, l.guest_link_id from guest_link_tokens l
         join guest_links gl on gl.tenant_id = l.tenant_id and gl.id = l.guest_link_id
        where gl.tenant_id = $1 and l.token_hash = gl.token_hash`,
      [graph.tenantId],
    );
    expect(link.rows).toHaveLength(1);
    const key = await admin.query(
      `select 1 from api_key_secrets s join api_keys k on k.tenant_id = s.tenant_id and k.id = s.api_key_id
        where k.tenant_id = $1 and s.secret_hash = k.secret_hash`,
      [graph.tenantId],
    );
    expect(key.rowCount).toBe(1);

    // A payment intent attached later, then moved to another intent: the lookup follows.
    await admin.query(`update booking_groups set payment_intent_id = 'pi_lookup_1' where tenant_id = $1`, [
      graph.tenantId,
    ]);
    await admin.query(`update booking_groups set payment_intent_id = 'pi_lookup_2' where tenant_id = $1`, [
      graph.tenantId,
    ]);
    const intents = await admin.query<{ payment_intent_id: string }>(
      `select payment_intent_id from stripe_payment_intents where tenant_id = $1 order by 1`,
      [graph.tenantId],
    );
    expect(intents.rows.map((r) => r.payment_intent_id)).toEqual(['pi_lookup_2']);

    // The same secret hash in another tenant is refused, as the global unique did before.
    const other = await createTenantGraph(admin, 'Lookups other');
    await expect(
      admin.query(
        `insert into api_keys (tenant_id, name, prefix, secret_hash)
         select $1, 'copy', prefix, secret_hash from api_keys where tenant_id = $2`,
        [other.tenantId, graph.tenantId],
      ),
    ).rejects.toMatchObject({ code: '23505' });

    await admin.query(`delete from api_keys where tenant_id = $1`, [graph.tenantId]);
    const gone = await admin.query(`select 1 from api_key_secrets where tenant_id = $1`, [graph.tenantId]);
    expect(gone.rowCount).toBe(0);
  });
});
