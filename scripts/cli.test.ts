import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant } from '../tooling/testing/fixtures';
import { TEST_APP_DB_PASSWORD } from '../tooling/testing/cluster';
import { FAILURES_PER_ACCOUNT_AND_ADDRESS, signInWithPassword } from '../lib/auth/sign-in';
import { createStaffUser } from '../lib/staff/create-staff-user';
import { createTenant } from '../lib/staff/create-tenant';

const run = promisify(execFile);

// Each CLI call starts a process that loads tsx and the app's modules (seconds under load); a test makes several.
const CLI_TEST_TIMEOUT = 90_000;

/** Runs the real CLI in a child process against this worker's test database. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], {
      env: {
        ...process.env,
        DATABASE_URL: process.env.TEST_ADMIN_URL,
        APP_DB_PASSWORD: TEST_APP_DB_PASSWORD,
        APP_DATABASE_URL: '',
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('the CLI', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('creates a tenant, facility, room, user and API key, printing one JSON object each', async () => {
    const tenant = await cli('tenant-create', '--name', 'CLI Inn', '--stripe-account', 'acct_cli123');
    expect(tenant.stderr).toBe('');
    expect(tenant.code).toBe(0);
    const { id: tenantId } = JSON.parse(tenant.stdout) as { id: string };
    const facility = JSON.parse(
      (await cli('facility-create', '--tenant', tenantId, '--name', 'Main', '--timezone', 'Asia/Tokyo')).stdout,
    ) as { id: string };
    const room = JSON.parse(
      (
        await cli(
          'room-create',
          '--tenant',
          tenantId,
          '--facility',
          facility.id,
          '--label',
          '301',
          '--lock-device',
          'lock-301',
        )
      ).stdout,
    ) as { id: string };
    const user = await cli(
      'user-create',
      '--tenant',
      tenantId,
      '--email',
      'Desk@CLI.example',
      '--password',
      'long enough',
      '--role',
      'front_desk',
    );
    const key = JSON.parse((await cli('api-key-create', '--tenant', tenantId, '--name', 'pms')).stdout) as {
      id: string;
      key: string;
    };
    expect(user.code).toBe(0);
    expect(key.key).toMatch(/^uok_/);

    const admin = await adminClient();
    const { rows } = await admin.query(
      `select t.name, t.stripe_account_id, f.time_zone, r.label, l.device_id as lock_device_ref, l.provider::text,
              u.email, m.role::text, k.prefix
       from tenants t join facilities f on f.tenant_id = t.id join rooms r on r.tenant_id = t.id
       join room_locks rl on rl.room_id = r.id join locks l on l.id = rl.lock_id
       join memberships m on m.tenant_id = t.id join users u on u.id = m.user_id join api_keys k on k.tenant_id = t.id
       where t.id = $1 and r.id = $2`,
      [tenantId, room.id],
    );
    await admin.end();
    expect(rows).toEqual([
      {
        name: 'CLI Inn',
        stripe_account_id: 'acct_cli123',
        time_zone: 'Asia/Tokyo',
        label: '301',
        lock_device_ref: 'lock-301',
        provider: 'simulator',
        email: 'desk@cli.example',
        role: 'front_desk',
        prefix: key.key.slice(0, 12),
      },
    ]);
  });

  it('refuses bad flags with a message on stderr, a non-zero exit and nothing written', async () => {
    const admin = await adminClient();
    const before = (await admin.query('select count(*)::int as n from tenants')).rows[0].n;
    const attempts = [
      ['tenant-create'],
      ['tenant-create', '--name'],
      ['tenant-create', '--name', 'X', '--stripe-account', 'not-an-account'],
      ['tenant-create', '--nme', 'X'],
      ['room-create', '--tenant', 'not-a-uuid', '--facility', 'x', '--label', 'y'],
      [
        'user-create',
        '--tenant',
        '00000000-0000-4000-8000-000000000000',
        '--email',
        'a@b.c',
        '--password',
        'long enough',
        '--role',
        'owner',
      ],
      ['no-such-command'],
    ];
    // Each is its own process; they run side by side (a CLI start loads every provider's client).
    const results = await Promise.all(attempts.map((args) => cli(...args)));
    results.forEach((result, i) => {
      expect({
        args: attempts[i],
        code: result.code !== 0,
        stdout: result.stdout,
        hasMessage: /error: \S/.test(result.stderr),
      }).toEqual({ args: attempts[i], code: true, stdout: '', hasMessage: true });
    });
    expect((await admin.query('select count(*)::int as n from tenants')).rows[0].n).toBe(before);
    await admin.end();
  }, 90_000);
});

describe('cli lock-assign', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('gives a device of the install’s lock account to one tenant, and refuses it to any other', async () => {
    const device = String(400_000_000 + Math.floor(Math.random() * 100_000_000));
    const [mine, theirs] = await Promise.all([
      createTenant({ name: 'Assign Inn' }),
      createTenant({ name: 'Other Inn' }),
    ]);
    const assigned = await cli('lock-assign', '--tenant', mine.id, '--device', device);
    expect(assigned.stderr).toBe('');
    expect(assigned.code).toBe(0);
    const { lockId } = JSON.parse(assigned.stdout) as { lockId: string };
    expect(lockId).toMatch(/^[0-9a-f-]{36}$/);
    // Again for the same tenant: the same lock.
    expect(JSON.parse((await cli('lock-assign', '--tenant', mine.id, '--device', device)).stdout)).toEqual({ lockId });

    const refused = await cli('lock-assign', '--tenant', theirs.id, '--device', device);
    expect({ failed: refused.code !== 0, stdout: refused.stdout }).toEqual({ failed: true, stdout: '' });
    expect(refused.stderr).toMatch(/error: conflict: .*assigned to another tenant/);
    // room-create --lock-device goes the same way: refused, and no room is made.
    const facility = JSON.parse((await cli('facility-create', '--tenant', theirs.id, '--name', 'Main')).stdout) as {
      id: string;
    };
    const room = await cli(
      'room-create',
      '--tenant',
      theirs.id,
      '--facility',
      facility.id,
      '--label',
      '1',
      '--lock-device',
      device,
    );
    expect({ failed: room.code !== 0, stdout: room.stdout }).toEqual({ failed: true, stdout: '' });
    expect(room.stderr).toMatch(/assigned to another tenant/);

    const admin = await adminClient();
    const { rows } = await admin.query(
      `select tenant_id, (select count(*)::int from rooms where tenant_id = $2) as rooms
         from locks where device_id = $1`,
      [device, theirs.id],
    );
    // A facility made without --timezone is in Asia/Tokyo, as API.md's `[--timezone Asia/Tokyo]` and the manager's form say.
    const zone = await admin.query(`select time_zone from facilities where id = $1`, [facility.id]);
    await admin.end();
    expect(rows).toEqual([{ tenant_id: mine.id, rooms: 0 }]);
    expect(zone.rows).toEqual([{ time_zone: 'Asia/Tokyo' }]);
  }, 60_000);

  it('secret-set refuses TTLock credentials whose endpoint is not a public https address, storing nothing', async () => {
    const tenant = await createTenant({ name: 'Endpoint Inn' });
    const value = (endpoint: string) =>
      JSON.stringify({ clientId: 'c', clientSecret: 's', username: 'u', password: 'p', endpoint });
    const results = await Promise.all(
      ['http://api.example.com', 'https://169.254.169.254', 'https://[::ffff:127.0.0.1]'].map((endpoint) =>
        cli('secret-set', '--tenant', tenant.id, '--provider', 'ttlock', '--value', value(endpoint)),
      ),
    );
    for (const result of results) {
      expect({ failed: result.code !== 0, stdout: result.stdout }).toEqual({ failed: true, stdout: '' });
      expect(result.stderr).toMatch(/error: invalid_request: The endpoint must/);
    }
    const admin = await adminClient();
    const { rows } = await admin.query(`select count(*)::int as n from provider_secrets where tenant_id = $1`, [
      tenant.id,
    ]);
    await admin.end();
    expect(rows[0].n).toBe(0);
  }, 60_000);

  it('sets Acuity credentials as "<user id>:<API key>" and maps an appointment type, refusing other shapes', async () => {
    const bookable = await createBookableTenant({ rooms: 1 });
    const tenant = { id: bookable.tenantId };
    const room = { id: bookable.roomIds[0]! };
    const secret = (value: string) =>
      cli('secret-set', '--tenant', tenant.id, '--provider', 'acuity', '--value', value);
    const source = (type: string) =>
      cli('booking-source-add', '--tenant', tenant.id, '--provider', 'acuity', '--event-type', type, '--room', room.id);
    const [good, bad, mapped, notAType] = await Promise.all([
      secret('123456:0123456789abcdef0123456789abcdef'),
      secret('0123456789abcdef0123456789abcdef'),
      source(' 5151 '),
      source('consult'),
    ]);
    expect(JSON.parse(good.stdout)).toEqual({ keyVersion: expect.any(Number) });
    expect({ failed: bad.code !== 0, stdout: bad.stdout }).toEqual({ failed: true, stdout: '' });
    expect(bad.stderr).toMatch(/error: invalid_request: Acuity credentials are/);
    expect(JSON.parse(mapped.stdout)).toEqual({ id: expect.any(String) });
    expect({ failed: notAType.code !== 0, stdout: notAType.stdout }).toEqual({ failed: true, stdout: '' });
    const admin = await adminClient();
    const { rows } = await admin.query(`select provider::text, event_type from booking_sources where tenant_id = $1`, [
      tenant.id,
    ]);
    const secrets = await admin.query(`select provider::text from provider_secrets where tenant_id = $1`, [tenant.id]);
    await admin.end();
    expect(rows).toEqual([{ provider: 'acuity', event_type: '5151' }]);
    expect(secrets.rows).toEqual([{ provider: 'acuity' }]);
  }, 60_000);
});

describe('cli user-create', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('refuses an email that already has an account, saying so, and keeps that account as it was', async () => {
    const first = await createTenant({ name: 'First Inn' });
    const second = await createTenant({ name: 'Second Inn' });
    const email = `taken-${process.pid}-${Date.now()}@example.com`;
    const created = await cli(
      'user-create',
      '--tenant',
      first.id,
      '--email',
      email,
      '--password',
      'first password',
      '--role',
      'manager',
    );
    expect(created.code).toBe(0);
    for (const tenant of [second.id, first.id]) {
      const again = await cli(
        'user-create',
        '--tenant',
        tenant,
        '--email',
        email.toUpperCase(),
        '--password',
        'another password',
        '--role',
        'front_desk',
      );
      expect({
        failed: again.code !== 0,
        stdout: again.stdout,
        says: /already has an account/.test(again.stderr),
      }).toEqual({
        failed: true,
        stdout: '',
        says: true,
      });
    }
    const admin = await adminClient();
    const { rows } = await admin.query(
      `select m.tenant_id, m.role from memberships m join users u on u.id = m.user_id where u.email = $1`,
      [email],
    );
    await admin.end();
    expect(rows).toEqual([{ tenant_id: first.id, role: 'manager' }]);
    expect(await signInWithPassword({ email, password: 'first password', address: '192.0.2.30' })).toMatchObject({
      ok: true,
    });
    expect(await signInWithPassword({ email, password: 'another password', address: '192.0.2.31' })).toEqual({
      ok: false,
    });
  }, 60_000);
});

describe('cli user-unlock', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('clears the account’s sign-in limits for every address, and refuses an unknown email', async () => {
    const tenant = await createTenant({ name: 'Unlock Inn' });
    const email = `unlock-${process.pid}-${Date.now()}@example.com`;
    await createStaffUser({ tenantId: tenant.id, email, password: 'right password', role: 'front_desk' });
    for (const address of ['192.0.2.10', '192.0.2.11']) {
      for (let i = 0; i < FAILURES_PER_ACCOUNT_AND_ADDRESS; i++)
        await signInWithPassword({ email, password: 'wrong', address });
      expect(await signInWithPassword({ email, password: 'right password', address })).toEqual({ ok: false });
    }
    const unlocked = await cli('user-unlock', '--email', email.toUpperCase());
    expect(unlocked).toEqual({ code: 0, stdout: '{"unlocked":true}\n', stderr: '' });
    for (const address of ['192.0.2.10', '192.0.2.11']) {
      expect(await signInWithPassword({ email, password: 'right password', address })).toMatchObject({ ok: true });
    }

    const unknown = await cli('user-unlock', '--email', 'nobody-here@example.com');
    expect({
      failed: unknown.code !== 0,
      stdout: unknown.stdout,
      message: /error: .*not_found/.test(unknown.stderr),
    }).toEqual({ failed: true, stdout: '', message: true });
    const malformed = await cli('user-unlock', '--email', 'not-an-email');
    expect({
      failed: malformed.code !== 0,
      stdout: malformed.stdout,
      message: /error: --email/.test(malformed.stderr),
    }).toEqual({ failed: true, stdout: '', message: true });
  });
});

describe('cli migrate --target', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('prints the plan, applies on an empty database, applies nothing the second time, and refuses a mismatched target', async () => {
    const pg = (await import('pg')).default;
    const maintenance = new pg.Client({ connectionString: process.env.TEST_MAINTENANCE_URL });
    await maintenance.connect();
    const name = `unlockos_test_scratch_gate_${process.pid}`;
    await maintenance.query(`drop database if exists ${name} with (force)`);
    await maintenance.query(`create database ${name}`);
    await maintenance.end();
    const url = new URL(process.env.TEST_MAINTENANCE_URL!);
    url.pathname = `/${name}`;
    // The host the client really uses: the embedded server's socket directory when the URL names one.
    const host = url.searchParams.get('host') ?? url.hostname;
    const env = { DATABASE_URL_CI: url.toString(), MIGRATE_CI_HOST: host, MIGRATE_CI_DATABASE: name };
    const runWith = async (args: string[], extra: Record<string, string>) => {
      try {
        const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], {
          env: { ...process.env, ...extra, DATABASE_URL: '' },
        });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const e = error as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    };
    const dry = await runWith(['migrate', '--target', 'ci', '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toMatch(/plan for target "ci" .*pending migration/);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, applied: 0 });
    const first = await runWith(['migrate', '--target', 'ci'], env);
    expect(JSON.parse(first.stdout).applied).toBeGreaterThan(0);
    const second = await runWith(['migrate', '--target', 'ci'], env);
    expect(JSON.parse(second.stdout)).toMatchObject({ applied: 0, plan: [] });
    const refused = await runWith(['migrate', '--target', 'ci'], {
      ...env,
      MIGRATE_CI_DATABASE: 'unlockos_production',
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Refusing/);
    const elsewhere = await runWith(['migrate', '--target', 'ci'], { ...env, MIGRATE_CI_HOST: 'db.prod.internal' });
    expect(elsewhere.code).not.toBe(0);
    expect(elsewhere.stderr).toMatch(/Refusing: .* points at host/);
  }, 60_000);
});

describe('cli room types and the booking site', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('creates a room type and a room of it, sets the facility’s modes, publishes it, refuses a taken slug', async () => {
    const { createFacility } = await import('../lib/facilities/create-facility');
    const [mine, theirs] = await Promise.all([createTenant({ name: 'Type Inn' }), createTenant({ name: 'Taken Inn' })]);
    const [facility, other] = await Promise.all([
      createFacility({ tenantId: mine.id, name: 'Main', timeZone: 'Asia/Tokyo' }),
      createFacility({ tenantId: theirs.id, name: 'Main', timeZone: 'Asia/Tokyo' }),
    ]);
    const slug = `cli-${process.pid}-${Date.now().toString(36)}`;
    const [type, updated, published] = await Promise.all([
      cli('room-type-create', '--tenant', mine.id, '--facility', facility.id, '--name', 'Twin', '--capacity', '3'),
      cli(
        'facility-update',
        ...['--tenant', mine.id, '--facility', facility.id, '--check-in', 'self'],
        ...['--self-check-in-opens-hours', '6', '--registration', 'jp', '--payment', 'at_property'],
      ),
      cli('facility-publish', '--tenant', mine.id, '--facility', facility.id, '--slug', slug),
    ]);
    expect([type.stderr, updated.stderr, published.stderr]).toEqual(['', '', '']);
    const { id: roomTypeId } = JSON.parse(type.stdout) as { id: string };
    expect(JSON.parse(updated.stdout)).toEqual({ id: facility.id });
    expect(JSON.parse(published.stdout)).toEqual({
      slug,
      url: expect.stringMatching(new RegExp(`^https?://.+/b/${slug}$`)),
    });
    const [room, source, taken] = await Promise.all([
      cli('room-create', '--tenant', mine.id, '--facility', facility.id, '--label', '7', '--room-type', roomTypeId),
      cli(
        'booking-source-add',
        '--tenant',
        mine.id,
        '--provider',
        'cal',
        '--event-type',
        '4242',
        '--room-type',
        roomTypeId,
      ),
      cli('facility-publish', '--tenant', theirs.id, '--facility', other.id, '--slug', slug),
    ]);
    expect({ failed: taken.code !== 0, stdout: taken.stdout, stderr: taken.stderr }).toEqual({
      failed: true,
      stdout: '',
      stderr: 'error: slug_taken: This address is taken.\n',
    });
    const { id: roomId } = JSON.parse(room.stdout) as { id: string };
    expect(JSON.parse(source.stdout)).toEqual({ id: expect.any(String) });
    const [roomFeed, typeFeed, both] = await Promise.all([
      cli(
        'ical-feed-add',
        '--tenant',
        mine.id,
        '--room',
        roomId,
        '--url',
        'https://www.airbnb.com/calendar/ical/1.ics',
      ),
      cli(
        'ical-feed-add',
        '--tenant',
        mine.id,
        '--room-type',
        roomTypeId,
        '--url',
        'https://admin.booking.com/hotel/ical.ics?t=1',
        '--channel',
        'booking',
      ),
      cli('ical-feed-add', '--tenant', mine.id, '--url', 'https://www.airbnb.com/calendar/ical/2.ics'),
    ]);
    expect(JSON.parse(roomFeed.stdout)).toEqual({ id: expect.any(String) });
    expect(JSON.parse(typeFeed.stdout)).toEqual({ id: expect.any(String) });
    expect({ failed: both.code !== 0, stderr: both.stderr }).toEqual({
      failed: true,
      stderr: expect.stringContaining('give --room or --room-type'),
    });

    const admin = await adminClient();
    const { rows } = await admin.query(
      `select t.name, t.capacity, t.weekday_cents, r.id as room_id, f.check_in_mode::text, f.self_check_in_opens_hours,
              f.registration::text, f.payment_mode::text, f.slug, f.published_at is not null as published,
              (select count(*)::int from booking_sources s where s.room_type_id = t.id and s.room_id is null) as sources,
              (select count(*)::int from ical_feeds i where i.tenant_id = t.tenant_id
                  and (i.room_type_id = t.id or i.room_id = r.id)) as ical_feeds,
              (select slug from facilities where id = $3) as their_slug
         from room_types t join rooms r on r.room_type_id = t.id join facilities f on f.id = t.facility_id
        where t.tenant_id = $1 and t.id = $2`,
      [mine.id, roomTypeId, other.id],
    );
    await admin.end();
    expect(rows).toEqual([
      {
        name: 'Twin',
        capacity: 3,
        weekday_cents: 10000,
        room_id: roomId,
        check_in_mode: 'self',
        self_check_in_opens_hours: 6,
        registration: 'jp',
        payment_mode: 'at_property',
        slug,
        published: true,
        sources: 1,
        ical_feeds: 2,
        their_slug: null,
      },
    ]);
  }, 90_000);
});
