import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SQLSTATE } from './errors';
import { readSqlFiles } from './migrator';

describe('the SQLSTATEs the application raises', () => {
  it('name one condition each (two branches once both chose UR001, and an archived room read as a finished stay)', () => {
    const codes = Object.values(SQLSTATE);
    expect(codes.length).toBe(new Set(codes).size);
  });

  it('are all known to the mapping: every errcode a migration or a prisma/sql file raises is listed here', () => {
    const known = new Set<string>(Object.values(SQLSTATE));
    const raised = new Set<string>();
    const sources = readSqlFiles().map((file) => file.sql);
    for (const dir of readdirSync('prisma/migrations', { withFileTypes: true })) {
      if (dir.isDirectory()) sources.push(readFileSync(`prisma/migrations/${dir.name}/migration.sql`, 'utf8'));
    }
    for (const sql of sources)
      for (const match of sql.matchAll(/errcode\s*=\s*'(U[A-Z]\d{3})'/g)) raised.add(match[1]!);
    expect([...raised].filter((code) => !known.has(code)).sort()).toEqual([]);
  });
});
