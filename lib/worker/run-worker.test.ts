import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { queuePoolConfig } from './run-worker';

// The queue's own bookkeeping commits without waiting for its WAL flush; nothing else does.
describe('the worker’s queue connections', () => {
  it('commit asynchronously, while the app’s connections keep waiting for the flush', async () => {
    const queue = new pg.Pool(queuePoolConfig(process.env.TEST_ADMIN_URL!, 4));
    const app = new pg.Client({ connectionString: process.env.APP_DATABASE_URL });
    await app.connect();
    try {
      expect((await queue.query('show synchronous_commit')).rows[0].synchronous_commit).toBe('off');
      // Every connection of the pool, not only the first.
      const clients = await Promise.all([queue.connect(), queue.connect()]);
      for (const client of clients) {
        expect((await client.query('show synchronous_commit')).rows[0].synchronous_commit).toBe('off');
        client.release();
      }
      expect((await app.query('show synchronous_commit')).rows[0].synchronous_commit).toBe('on');
    } finally {
      await queue.end();
      await app.end();
    }
  });
});
