import { defineConfig } from 'prisma/config';

// Used by `prisma generate` (and by `prisma migrate deploy` where a schema engine is reachable).
// The project applies its own migrations with lib/db/migrator.ts; see DESIGN.md "Running".
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost/unlockos' },
});
