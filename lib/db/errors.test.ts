import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SQLSTATE } from './errors';

describe('the SQLSTATEs the application raises', () => {
  it('name one condition each (two branches once both chose UR001, and an archived room read as a finished stay)', () => {
    const codes = Object.values(SQLSTATE);
    expect(codes.length).toBe(new Set(codes).size);
  });

  it('are all known to the mapping: every errcode a migration raises is listed here', () => {
    const known = new Set<string>(Object.values(SQLSTATE));
    const raised = new Set<string>();
    for (const dir of readdirSync('prisma/migrations', { withFileTypes: true })) {
      if (!dir.isDirectory()) continue;
      const sql = readFileSync(`prisma/migrations/${dir.name}/migration.sql`, 'utf8');
      for (const match of sql.matchAll(/errcode\s*=\s*'(U[A-Z]\d{3})'/g)) raised.add(match[1]!);
    }
    expect([...raised].filter((code) => !known.has(code)).sort()).toEqual([]);
  });
});
