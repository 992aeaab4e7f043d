import { describe, expect, it } from 'vitest';
import { buildEnv, childEnv, isCredentialVariable, type ChildSettings } from './child-env';

const OWNER_URL = 'postgresql://postgres:owner-pw@127.0.0.1:5432/unlockos';

// What the operator's shell holds when it runs `npm start`: configuration, and credentials that
// are the launcher's alone (the owner's URL, the login roles' passwords) or meant for one child.
const inherited = {
  PATH: '/usr/bin',
  HOME: '/root',
  LOG_LEVEL: 'warn',
  TRUST_PROXY: '1',
  DATABASE_URL: OWNER_URL,
  DATABASE_URL_STAGING: 'postgresql://owner:pw@staging/unlockos',
  QUEUE_DATABASE_URL: OWNER_URL,
  APP_DATABASE_URL: 'postgresql://stale',
  APP_DB_PASSWORD: 'login-pw',
  APP_QUEUE_DB_PASSWORD: 'queue-pw',
  PGPASSWORD: 'owner-pw',
  NEXTAUTH_SECRET: 'operator-nextauth',
  APP_DATA_KEY: 'operator-key',
  APP_DATA_KEY_PREVIOUS: 'previous-key',
  APP_DATA_KEYS: '1:older-key',
  STRIPE_SECRET_KEY: 'sk_test_1',
  STRIPE_WEBHOOK_SECRET: 'whsec_1',
  SMTP_URL: 'smtp://user:pw@mail.example:587',
  LOCK_VENDOR_CLIENT_SECRET: 'operator-vendor-secret',
  LOCK_VENDOR_PASSWORD: 'operator-vendor-password',
  GITHUB_TOKEN: 'ghp_x',
  SSH_AUTH_SOCK: '/tmp/agent.sock',
  TEST_ADMIN_URL: OWNER_URL,
  REDIS_URL: 'redis://default:redis-pw@127.0.0.1:6379',
};

const settings: ChildSettings = {
  appDatabaseUrl: 'postgresql://app_login:login-pw@127.0.0.1:5432/unlockos',
  queueDatabaseUrl: 'postgresql://app_queue:queue-pw@127.0.0.1:5432/unlockos',
  appUrl: 'https://unlockos.example',
  nextauthUrl: 'https://unlockos.example',
  nextauthSecret: 'nextauth-secret',
  appDataKey: 'data-key',
  appDataKeyVersion: '2',
  lockProvider: 'simulator',
  lockProviderUrl: 'http://127.0.0.1:4100',
  lockProviderClientId: 'unlockos',
  lockProviderClientSecret: 'fresh-simulator-secret',
  lockProviderUsername: 'unlockos_demo',
  lockProviderPassword: 'fresh-simulator-password',
  simulatorPort: 4100,
  simulatorClientId: 'unlockos',
  simulatorClientSecret: 'fresh-simulator-secret',
  simulatorUsername: 'unlockos_demo',
  simulatorPassword: 'fresh-simulator-password',
};

const CONFIGURATION = ['HOME', 'LOG_LEVEL', 'NODE_ENV', 'PATH', 'TRUST_PROXY'];

describe('the environment of each child process', () => {
  it('builds the app with configuration only: no credential of the operator reaches `next build`', () => {
    const env = buildEnv({ ...inherited, NODE_ENV: 'development', NEXT_TELEMETRY_DISABLED: '0' });
    expect(Object.keys(env).sort()).toEqual([...CONFIGURATION, 'NEXT_TELEMETRY_DISABLED'].sort());
    expect(env).toMatchObject({ NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' });
  });

  it('gives the web processes the login role’s URL and what serving requests needs — nothing of the queue or the owner', () => {
    const env = childEnv('web', settings, inherited);
    expect(Object.keys(env).sort()).toEqual(
      [
        ...CONFIGURATION,
        'APP_DATABASE_URL',
        'APP_DATA_KEY',
        'APP_DATA_KEYS',
        'APP_DATA_KEY_VERSION',
        'APP_URL',
        'NEXTAUTH_SECRET',
        'NEXTAUTH_URL',
        'STRIPE_SECRET_KEY',
        'STRIPE_WEBHOOK_SECRET',
        // The Locks page's re-sync and import ask the lock provider while the manager waits.
        'LOCK_VENDOR',
        'LOCK_VENDOR_URL',
        'LOCK_VENDOR_CLIENT_ID',
        'LOCK_VENDOR_CLIENT_SECRET',
        'LOCK_VENDOR_USERNAME',
        'LOCK_VENDOR_PASSWORD',
      ].sort(),
    );
    expect(env).toMatchObject({
      APP_DATABASE_URL: settings.appDatabaseUrl,
      NEXTAUTH_SECRET: 'nextauth-secret',
      APP_DATA_KEY: 'data-key',
      APP_DATA_KEY_VERSION: '2',
      APP_URL: 'https://unlockos.example',
      NEXTAUTH_URL: 'https://unlockos.example',
      NODE_ENV: 'production',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      LOCK_VENDOR_CLIENT_SECRET: 'fresh-simulator-secret',
      LOCK_VENDOR_PASSWORD: 'fresh-simulator-password',
    });
  });

  it('gives the workers the login role’s URL, the queue role’s URL and the lock provider’s credentials', () => {
    const env = childEnv('worker', settings, inherited);
    expect(Object.keys(env).sort()).toEqual(
      [
        ...CONFIGURATION,
        'APP_DATABASE_URL',
        'QUEUE_DATABASE_URL',
        'APP_DATA_KEY',
        'APP_DATA_KEYS',
        'APP_DATA_KEY_VERSION',
        'APP_URL',
        'NEXTAUTH_SECRET',
        'LOCK_VENDOR',
        'LOCK_VENDOR_URL',
        'LOCK_VENDOR_CLIENT_ID',
        'LOCK_VENDOR_CLIENT_SECRET',
        'LOCK_VENDOR_USERNAME',
        'LOCK_VENDOR_PASSWORD',
        'SMTP_URL',
        // A late payment is refunded, and a released hold's session expired, while the worker processes.
        'STRIPE_SECRET_KEY',
      ].sort(),
    );
    expect(env).toMatchObject({
      APP_DATABASE_URL: settings.appDatabaseUrl,
      QUEUE_DATABASE_URL: settings.queueDatabaseUrl,
      LOCK_VENDOR_URL: 'http://127.0.0.1:4100',
      LOCK_VENDOR_CLIENT_ID: 'unlockos',
      LOCK_VENDOR_CLIENT_SECRET: 'fresh-simulator-secret',
      LOCK_VENDOR_USERNAME: 'unlockos_demo',
      LOCK_VENDOR_PASSWORD: 'fresh-simulator-password',
    });
  });

  it('gives the simulator its port, client secret and account, and no database credential or application secret', () => {
    const env = childEnv('simulator', settings, inherited);
    expect(Object.keys(env).sort()).toEqual(
      [
        ...CONFIGURATION,
        'SIMULATOR_CLIENT_ID',
        'SIMULATOR_CLIENT_SECRET',
        'SIMULATOR_PASSWORD',
        'SIMULATOR_PORT',
        'SIMULATOR_USERNAME',
      ].sort(),
    );
    expect(env).toMatchObject({
      SIMULATOR_PORT: '4100',
      SIMULATOR_CLIENT_SECRET: 'fresh-simulator-secret',
      SIMULATOR_USERNAME: 'unlockos_demo',
      SIMULATOR_PASSWORD: 'fresh-simulator-password',
    });
  });

  it('gives the mail catcher the login role’s URL and its own login only, and the workers an SMTP_URL to it', () => {
    const withCatcher = { ...settings, mailCatcher: { port: 2525, user: 'unlockos', password: 'fresh/catcher+pw' } };
    const env = childEnv('mailcatcher', withCatcher, inherited);
    expect(Object.keys(env).sort()).toEqual(
      [...CONFIGURATION, 'APP_DATABASE_URL', 'MAIL_CATCHER_PASSWORD', 'MAIL_CATCHER_PORT', 'MAIL_CATCHER_USER'].sort(),
    );
    expect(env).toMatchObject({ APP_DATABASE_URL: settings.appDatabaseUrl, MAIL_CATCHER_PORT: '2525' });
    expect(childEnv('worker', withCatcher, inherited).SMTP_URL).toBe(
      'smtp://unlockos:fresh%2Fcatcher%2Bpw@127.0.0.1:2525',
    );
    expect(childEnv('web', withCatcher, inherited).SMTP_URL).toBeUndefined();
  });

  it('without an operator’s Stripe key, points web and workers at the local stand-in and gives the stand-in only its own settings', () => {
    const standin = {
      port: 4242,
      webhookUrl: 'http://127.0.0.1:3000/api/webhooks/stripe',
      webhookSecret: 'whsec_fresh',
      apiKey: 'sk_test_fresh0key',
    };
    const { STRIPE_SECRET_KEY: _key, STRIPE_WEBHOOK_SECRET: _secret, ...withoutStripe } = inherited;
    const withStandin = { ...settings, stripeStandin: standin };
    const env = childEnv('stripestandin', withStandin, {
      ...withoutStripe,
      STRIPE_API_URL: 'https://elsewhere.example',
    });
    expect(Object.keys(env).sort()).toEqual(
      [
        ...CONFIGURATION,
        'STRIPE_API_URL',
        'STRIPE_STANDIN_API_KEY',
        'STRIPE_STANDIN_PORT',
        'STRIPE_STANDIN_WEBHOOK_SECRET',
        'STRIPE_STANDIN_WEBHOOK_URL',
      ].sort(),
    );
    expect(env).toMatchObject({
      STRIPE_STANDIN_PORT: '4242',
      STRIPE_STANDIN_WEBHOOK_URL: 'http://127.0.0.1:3000/api/webhooks/stripe',
      STRIPE_STANDIN_WEBHOOK_SECRET: 'whsec_fresh',
      // The stand-in takes only the key made for this start, the one web and workers are given.
      STRIPE_STANDIN_API_KEY: 'sk_test_fresh0key',
    });
    for (const kind of ['web', 'worker'] as const) {
      const child = childEnv(kind, withStandin, { ...withoutStripe, STRIPE_API_URL: 'https://elsewhere.example' });
      expect(child, kind).toMatchObject({
        STRIPE_SECRET_KEY: 'sk_test_fresh0key',
        STRIPE_API_URL: 'http://127.0.0.1:4242',
        STRIPE_WEBHOOK_SECRET: 'whsec_fresh',
        STRIPE_STANDIN_URL: 'http://127.0.0.1:4242',
      });
      expect(child.STRIPE_STANDIN_WEBHOOK_SECRET, kind).toBeUndefined();
      expect(child.STRIPE_STANDIN_API_KEY, kind).toBeUndefined();
    }
    for (const kind of ['simulator', 'mailcatcher'] as const) {
      const values = Object.values(childEnv(kind, withStandin, withoutStripe)).join('\n');
      expect(values, kind).not.toContain('whsec_fresh');
      expect(values, kind).not.toContain('sk_test_fresh0key');
    }
    // With the operator's own key there is no stand-in: nothing of it reaches a child.
    expect(childEnv('web', settings, inherited)).toMatchObject({
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
    });
    expect(childEnv('web', settings, inherited).STRIPE_STANDIN_URL).toBeUndefined();
  });

  it('never passes on the owner’s URL, DATABASE_URL or a login role’s password, and the queue URL only to workers', () => {
    for (const kind of ['web', 'worker', 'simulator', 'mailcatcher', 'stripestandin'] as const) {
      const env = childEnv(kind, settings, inherited);
      const values = Object.values(env).join('\n');
      expect(values).not.toContain('owner-pw');
      expect(values).not.toContain('postgres:');
      expect(env.DATABASE_URL).toBeUndefined();
      expect(env.APP_DB_PASSWORD).toBeUndefined();
      expect(env.APP_QUEUE_DB_PASSWORD).toBeUndefined();
      expect(env.APP_DATA_KEY_PREVIOUS).toBeUndefined();
      expect(values.includes(settings.queueDatabaseUrl)).toBe(kind === 'worker');
      expect(values.includes('operator-vendor-secret')).toBe(false);
      expect(values.includes('operator-vendor-password')).toBe(false);
    }
  });

  it('recognises credentials by name', () => {
    for (const name of [
      'DATABASE_URL',
      'QUEUE_DATABASE_URL',
      'APP_DB_PASSWORD',
      'PGPASSWORD',
      'NEXTAUTH_SECRET',
      'APP_DATA_KEY',
      'AWS_ACCESS_KEY_ID',
      'GITHUB_TOKEN',
      'npm_config__authToken',
      'SMTP_URL',
      'STRIPE_STANDIN_WEBHOOK_SECRET',
      'STRIPE_STANDIN_API_KEY',
    ]) {
      expect(isCredentialVariable(name), name).toBe(true);
    }
    for (const name of [
      'PATH',
      'PWD',
      'NEXTAUTH_URL',
      'APP_URL',
      'LOG_LEVEL',
      'LOCK_VENDOR_URL',
      'STRIPE_API_BASE',
      'STRIPE_API_URL',
      'STRIPE_STANDIN_URL',
      'UNLOCKOS_DATA_DIR',
      'PORT',
      'MAIL_FROM',
    ]) {
      expect(isCredentialVariable(name), name).toBe(false);
    }
    // …or by a value that holds a password, whatever its name.
    expect(isCredentialVariable('TEST_ADMIN_URL', OWNER_URL)).toBe(true);
    expect(isCredentialVariable('APP_URL', 'https://unlockos.example/base')).toBe(false);
    expect(isCredentialVariable('STRIPE_API_BASE', 'http://127.0.0.1:4242')).toBe(false);
  });
});
