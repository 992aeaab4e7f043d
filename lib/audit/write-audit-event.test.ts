import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asService, type Tx } from '../db/tx';
import { adminClient, createTenantGraph, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { writeAuditEvent } from './write-audit-event';

const ROOT = join(__dirname, '..', '..');
const WRITER = 'lib/audit/write-audit-event.ts';

/** The TypeScript sources of the application and its scripts, as paths from the repository's root. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('writeAuditEvent', () => {
  let admin: pg.Client;
  beforeAll(async () => {
    admin = await adminClient();
  });
  afterAll(async () => {
    await admin.end();
  });

  it('writes one row with the actor snapshotted, the subject and the metadata', async () => {
    const { tenantId, roomId } = await createTenantGraph(admin, 'Audit writer');
    await asService({ tenantId }, (tx) =>
      writeAuditEvent(tx, {
        tenantId,
        actor: { type: 'user', id: 'u-1', label: 'Ana' },
        action: 'room.archived',
        subject: { type: 'room', id: roomId },
        roomId,
        metadata: { label: '101' },
      }),
    );
    const rows = await admin.query(
      `select actor_type, actor_id, actor_label, subject_type, subject_id, room_id, reason, metadata
         from audit_events where tenant_id = $1 and action = 'room.archived'`,
      [tenantId],
    );
    expect(rows.rows).toEqual([
      {
        actor_type: 'user',
        actor_id: 'u-1',
        actor_label: 'Ana',
        subject_type: 'room',
        subject_id: roomId,
        room_id: roomId,
        reason: null,
        metadata: { label: '101' },
      },
    ]);
  });

  it('defaults metadata to an empty object and leaves the subject id null when none is given', async () => {
    const { tenantId } = await createTenantGraph(admin, 'Audit writer defaults');
    await asService({ tenantId }, (tx) =>
      writeAuditEvent(tx, { tenantId, actor: TEST_ACTOR, action: 'api_key.revoked', subject: { type: 'api_key' } }),
    );
    const rows = await admin.query(
      `select subject_id, metadata from audit_events where tenant_id = $1 and action = 'api_key.revoked'`,
      [tenantId],
    );
    expect(rows.rows).toEqual([{ subject_id: null, metadata: {} }]);
  });

  it('refuses an action outside AUDIT_ACTIONS, at compile time and at run time', async () => {
    const tx = {} as Tx;
    await expect(
      writeAuditEvent(tx, {
        tenantId: '00000000-0000-0000-0000-000000000000',
        actor: TEST_ACTOR,
        // @ts-expect-error not an audit action: `npm run typecheck` fails if this line type-checks
        action: 'key.teleported',
        subject: { type: 'access_key' },
      }),
    ).rejects.toMatchObject({ code: 'internal' });
  });

  it("types each action's metadata", () => {
    const tx = {} as Tx;
    const typed = () =>
      writeAuditEvent(tx, {
        tenantId: 't',
        actor: TEST_ACTOR,
        action: 'api_key.created',
        subject: { type: 'api_key', id: 'k' },
        // @ts-expect-error api_key.created keeps { name, prefix }: a missing prefix does not type-check
        metadata: { name: 'ci' },
      });
    const missing = () =>
      // @ts-expect-error api_key.created requires its metadata
      writeAuditEvent(tx, {
        tenantId: 't',
        actor: TEST_ACTOR,
        action: 'api_key.created',
        subject: { type: 'api_key' },
      });
    expect([typed, missing]).toHaveLength(2);
  });

  it('is the only place that creates audit rows through Prisma', () => {
    const offenders = ['lib', 'app', 'scripts', 'components']
      .flatMap(sources)
      .filter((path) => path !== WRITER && !path.endsWith('write-audit-event.test.ts'))
      .filter((path) => /auditEvent\s*\.\s*create/.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
