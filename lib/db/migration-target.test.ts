import { describe, expect, it } from 'vitest';
import { resolveMigrationTarget } from './migration-target';

describe('migration targets', () => {
  it('resolve from their own environment variables only', () => {
    expect(() => resolveMigrationTarget('staging', { DATABASE_URL: 'postgresql://db.internal/unlockos' })).toThrow(
      /DATABASE_URL_STAGING/,
    );
    expect(
      resolveMigrationTarget('staging', {
        DATABASE_URL_STAGING: 'postgresql://u:p@db.staging.internal:5432/unlockos_staging',
        MIGRATE_STAGING_HOST: 'db.staging.internal',
        MIGRATE_STAGING_DATABASE: 'unlockos_staging',
      }),
    ).toMatchObject({
      name: 'staging',
      host: 'db.staging.internal',
      database: 'unlockos_staging',
      appDbPassword: null,
    });
  });

  it('refuse a URL whose host or database does not match the named environment', () => {
    const base = { MIGRATE_PRODUCTION_HOST: 'db.prod.internal', MIGRATE_PRODUCTION_DATABASE: 'unlockos' };
    expect(() =>
      resolveMigrationTarget('production', {
        ...base,
        DATABASE_URL_PRODUCTION: 'postgresql://db.staging.internal/unlockos',
      }),
    ).toThrow(/host "db.staging.internal"/);
    expect(() =>
      resolveMigrationTarget('production', {
        ...base,
        DATABASE_URL_PRODUCTION: 'postgresql://db.prod.internal/unlockos_test',
      }),
    ).toThrow(/database "unlockos_test"/);
    expect(() =>
      resolveMigrationTarget('production', { DATABASE_URL_PRODUCTION: 'postgresql://db.prod.internal/unlockos' }),
    ).toThrow(/MIGRATE_PRODUCTION_HOST/);
    expect(() =>
      resolveMigrationTarget('local', { DATABASE_URL_LOCAL: 'postgresql://db.prod.internal/unlockos' }),
    ).toThrow(/loopback/);
    expect(
      resolveMigrationTarget('local', { DATABASE_URL_LOCAL: 'postgresql://127.0.0.1:5432/unlockos' }),
    ).toMatchObject({ host: '127.0.0.1' });
    expect(() => resolveMigrationTarget('Prod;drop', {})).toThrow(/not a target name/);
  });

  it('check the host the client really uses: a `host` parameter overrides the URL host', () => {
    const base = { MIGRATE_PRODUCTION_HOST: 'db.prod.internal', MIGRATE_PRODUCTION_DATABASE: 'unlockos' };
    expect(() =>
      resolveMigrationTarget('local', {
        DATABASE_URL_LOCAL: 'postgresql://127.0.0.1:5432/unlockos?host=db.prod.internal',
      }),
    ).toThrow(/host "db.prod.internal"/);
    expect(() =>
      resolveMigrationTarget('production', {
        ...base,
        DATABASE_URL_PRODUCTION: 'postgresql://db.prod.internal/unlockos?host=db.staging.internal',
      }),
    ).toThrow(/host "db.staging.internal"/);
    expect(
      resolveMigrationTarget('local', {
        DATABASE_URL_LOCAL: 'postgresql://127.0.0.1:5432/unlockos?host=%2Fwork%2F.data%2Fpg',
      }),
    ).toMatchObject({ host: '/work/.data/pg' });
  });
});
