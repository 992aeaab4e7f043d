// Generates the Prisma client when it is missing or older than the schema. Prisma's CLI wants a
// native schema engine it cannot download here; `generate` does not use it, so any file will do.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const schema = 'prisma/schema.prisma';
const marker = 'lib/db/generated/client.ts';
if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(schema).mtimeMs) {
  execFileSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
  });
}
