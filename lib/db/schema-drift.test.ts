import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../../tooling/testing/fixtures';
import {
  catalogShape,
  modelShape,
  readDatamodel,
  schemaDrift,
  type TDatamodel,
  type TSchemaShape,
} from './schema-drift';

// Tables of the public schema that deliberately have no Prisma model, each with the reason.
// (graphile-worker's tables live in their own schema and are not compared.)
const UNMODELLED = [
  // The migrator's own bookkeeping (lib/db/migrator.ts); the application never reads it.
  '_prisma_migrations',
  // What each stay holds of each room (issue 28): written only by triggers, read only in SQL (its
  // tstzrange has no Prisma type).
  'room_holds',
];

const schemaText = readFileSync('prisma/schema.prisma', 'utf8');

let admin: pg.Client;
let database: TSchemaShape;
beforeAll(async () => {
  admin = await adminClient();
  database = await catalogShape(admin);
});
afterAll(async () => {
  await admin.end();
});

describe('schema.prisma and the migrated database', () => {
  it('declare the same tables, columns, types, nullability and enums', () => {
    const drift = schemaDrift(modelShape(readDatamodel(schemaText)), database, UNMODELLED);
    expect(drift, `schema.prisma has drifted from the migrations:\n${drift.join('\n')}`).toEqual([]);
  });
});

describe('the drift check', () => {
  /** The real datamodel with one model's fields changed by `edit`. */
  function mutated(edit: (datamodel: TDatamodel) => void): TSchemaShape {
    const datamodel = readDatamodel(schemaText);
    edit(datamodel);
    return modelShape(datamodel);
  }
  const field = (datamodel: TDatamodel, model: string, name: string) => {
    const found = datamodel.models.find((m) => m.name === model)?.fields.find((f) => f.name === name);
    if (!found) throw new Error(`no field ${model}.${name}`);
    return found;
  };

  it('reports a changed type, nullability, column name, enum label and a missing model, one line each', () => {
    const models = mutated((datamodel) => {
      field(datamodel, 'Room', 'pinLength').nativeType = null; // Int → integer, the database has smallint
      field(datamodel, 'Guest', 'email').isRequired = true;
      field(datamodel, 'AccessKey', 'expiresAt').nativeType = null; // timestamp(3) without time zone
      field(datamodel, 'ApiKey', 'lastUsedAt').dbName = 'last_use';
      field(datamodel, 'WorkerHeartbeat', 'queueWorkerIds').isList = false;
      datamodel.enums.find((e) => e.name === 'KeyStatus')?.values.push({ name: 'suspended' });
      datamodel.models = datamodel.models.filter((m) => m.name !== 'RateBucket');
    });
    expect(schemaDrift(models, database, UNMODELLED)).toEqual([
      '~ column rooms.pin_length: schema.prisma says integer not null, the database has smallint not null',
      '~ column guests.email: schema.prisma says text not null, the database has text null',
      '~ column access_keys.expires_at: schema.prisma says timestamp(3) without time zone not null, the database has timestamp with time zone not null',
      '- column api_keys.last_use timestamp with time zone null: in schema.prisma, not in the database',
      '+ column api_keys.last_used_at timestamp with time zone null: in the database, not in schema.prisma',
      '~ column worker_heartbeats.queue_worker_ids: schema.prisma says text not null, the database has text[] not null',
      '+ table rate_buckets: in the database, no model and not on the allow-list',
      '~ enum key_status: schema.prisma says (pre_issued, active, revoked, expired, suspended), the database has (pre_issued, active, revoked, expired)',
    ]);
  });

  it('sees a migration that changes the database (applied in a transaction that is rolled back)', async () => {
    await admin.query('begin');
    try {
      await admin.query(`alter table rooms alter column label drop not null, alter column currency type varchar(3)`);
      await admin.query(`alter table guests add column nickname text`);
      await admin.query(`create table ledger (id uuid primary key)`);
      const drift = schemaDrift(modelShape(readDatamodel(schemaText)), await catalogShape(admin), UNMODELLED);
      expect(drift).toEqual([
        '~ column rooms.label: schema.prisma says text not null, the database has text null',
        '~ column rooms.currency: schema.prisma says text not null, the database has character varying(3) not null',
        '+ column guests.nickname text null: in the database, not in schema.prisma',
        '+ table ledger: in the database, no model and not on the allow-list',
      ]);
    } finally {
      await admin.query('rollback');
    }
  });

  it('reports a table only the database has unless it is on the allow-list, and a stale allow-list entry', () => {
    const models: TSchemaShape = { tables: [{ table: 'rooms', columns: [] }], enums: [] };
    const db: TSchemaShape = {
      tables: [
        { table: 'rooms', columns: [] },
        { table: 'ledger', columns: [{ column: 'id', type: 'uuid', nullable: false }] },
        { table: 'notes', columns: [] },
      ],
      enums: [{ name: 'mood', values: ['calm'] }],
    };
    expect(schemaDrift(models, db, ['notes', 'rooms'])).toEqual([
      '+ table ledger: in the database, no model and not on the allow-list',
      '~ table rooms: on the allow-list but has a model (drop it from the list)',
      '+ enum mood: in the database, not in schema.prisma',
    ]);
  });
});
