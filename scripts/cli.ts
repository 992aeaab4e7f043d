import { parseArgs } from 'node:util';
import { z } from 'zod';
import { COMMANDS } from '../lib/cli/commands';
import { localSecrets } from '../lib/config/local-state';
import { openDatabase, prepareDatabase } from '../lib/db/database';
import { migrate } from '../lib/db/migrator';
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
  if (entry && 'notYet' in entry) fail(`"${name}" is not available yet: ${entry.notYet}`);

  const known = entry && !('notYet' in entry) ? Object.keys(entry.flags.shape) : [];
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(known.map((flag) => [flag, { type: 'string' as const }])),
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }

  let flags: unknown = values;
  if (entry && !('notYet' in entry)) {
    const parsed = entry.flags.safeParse(values);
    if (!parsed.success) {
      throw new UsageError(parsed.error.issues.map((i) => (i.path.length ? `--${i.path.join('.')}: ${i.message}` : i.message)).join('; '));
    }
    flags = parsed.data;
  }

  const database = await openDatabase();
  try {
    if (name === 'migrate') {
      const { applied } = await prepareDatabase({ adminUrl: database.adminUrl });
      process.stdout.write(`${JSON.stringify({ applied })}\n`);
      return;
    }
    if (database.embedded) await prepareDatabase({ adminUrl: database.adminUrl });
    else {
      const { pending } = await migrate({ databaseUrl: database.adminUrl, dryRun: true });
      if (pending.length > 0) throw new UsageError(`the database has ${pending.length} pending migration(s): run \`npm run cli -- migrate\` first`);
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
