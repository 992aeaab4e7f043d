import { parseArgs } from 'node:util';
import { z } from 'zod';
import { COMMANDS } from '../tooling/cli/commands';
import { localSecrets } from '../tooling/config/local-state';
import { openDatabase, prepareDatabase } from '../tooling/database/database';
import { migrate } from '../lib/db/migrator';
import { resolveMigrationTarget } from '../lib/db/migration-target';
import { AppError } from '../lib/errors';
import { toDomainError } from '../lib/db/errors';

class UsageError extends Error {}

function fail(message: string, code = 2): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  const [name, ...rest] = process.argv.slice(2);
  const usage = `usage: npm run cli -- <command> [--flags]\ncommands: migrate, ${Object.keys(COMMANDS).join(', ')}`;
  if (!name || name === '--help' || name === 'help') fail(usage);
  const entry = name === 'migrate' ? null : COMMANDS[name];
  if (name !== 'migrate' && !entry) fail(`unknown command "${name}"\n${usage}`);

  const known = entry ? Object.keys(entry.flags.shape) : ['target'];
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries(known.map((flag) => [flag, { type: 'string' as const }])),
        ...(name === 'migrate' ? { 'dry-run': { type: 'boolean' as const } } : {}),
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }

  let flags: unknown = values;
  if (entry) {
    const parsed = entry.flags.safeParse(values);
    if (!parsed.success) {
      throw new UsageError(
        parsed.error.issues.map((i) => (i.path.length ? `--${i.path.join('.')}: ${i.message}` : i.message)).join('; '),
      );
    }
    flags = parsed.data;
  }

  if (name === 'migrate' && typeof values.target === 'string') {
    await migrateTarget(values.target, values['dry-run'] === true);
    return;
  }
  const database = await openDatabase();
  try {
    if (name === 'migrate') {
      if (values['dry-run'] === true) {
        const { pending, sqlPending } = await migrate({ databaseUrl: database.adminUrl, dryRun: true });
        process.stdout.write(`${JSON.stringify({ dryRun: true, plan: pending, sqlFiles: sqlPending, applied: 0 })}\n`);
        return;
      }
      const { applied } = await prepareDatabase({ adminUrl: database.adminUrl });
      process.stdout.write(`${JSON.stringify({ applied })}\n`);
      return;
    }
    if (database.embedded) await prepareDatabase({ adminUrl: database.adminUrl });
    else {
      const { pending, sqlPending } = await migrate({ databaseUrl: database.adminUrl, dryRun: true });
      if (pending.length > 0 || sqlPending.length > 0)
        throw new UsageError(
          `the database has ${pending.length} pending migration(s) and ${sqlPending.length} changed SQL file(s): run \`npm run cli -- migrate\` first`,
        );
    }
    process.env.APP_DATABASE_URL = database.appUrl;
    // Guest links are derived from the same secret `npm start` uses in this folder.
    process.env.NEXTAUTH_SECRET ||= localSecrets().nextauthSecret;
    // Provider secrets use the same data key as `npm start` in this folder.
    process.env.APP_DATA_KEY ||= localSecrets().appDataKey;
    const result = await (entry as { run: (f: never) => Promise<unknown> }).run(flags as never);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    const { disconnectDb } = await import('../lib/db/client');
    await disconnectDb();
  } finally {
    await database.close();
  }
}

/** `migrate --target <env>`: resolve the target from flags and environment only, print the plan, then apply. */
async function migrateTarget(targetName: string, dryRun: boolean): Promise<void> {
  const target = resolveMigrationTarget(targetName);
  const { pending, sqlPending } = await migrate({ databaseUrl: target.url, dryRun: true });
  process.stderr.write(
    `plan for target "${target.name}" (host ${target.host}, database ${target.database}): ${pending.length} pending migration(s)${pending.length ? `: ${pending.join(', ')}` : ''}, ${sqlPending.length} SQL file(s) to apply\n`,
  );
  if (dryRun) {
    process.stdout.write(
      `${JSON.stringify({ target: target.name, dryRun: true, plan: pending, sqlFiles: sqlPending, applied: 0 })}\n`,
    );
    return;
  }
  const { applied } = await prepareDatabase({ adminUrl: target.url, appDbPassword: target.appDbPassword });
  process.stdout.write(`${JSON.stringify({ target: target.name, plan: pending, applied })}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError) fail(error.message);
    const domain = toDomainError(error);
    if (domain instanceof AppError) fail(`${domain.code}: ${domain.message}`, 1);
    if (error instanceof z.ZodError) fail(error.message);
    fail((error as Error).message ?? String(error), 1);
  },
);
