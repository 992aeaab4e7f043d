import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const decisionsDir = path.join(root, 'docs/decisions');
const read = (file: string) => readFileSync(file, 'utf8');

/** README.md and every Markdown file under docs/. */
function markdownFiles(): string[] {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(root, 'docs', name));
  return [path.join(root, 'README.md'), ...docs];
}

/** The targets of a Markdown file's inline links, outside code spans and fenced blocks. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
}

describe('the documentation stands on its own', () => {
  it('links only to files inside the repository (or to web addresses)', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const target of linkTargets(read(file))) {
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        const resolved = path.resolve(path.dirname(file), decodeURI(target.split('#')[0]!));
        const inside = resolved === root || resolved.startsWith(root + path.sep);
        if (!inside || !existsSync(resolved)) broken.push(`${path.relative(root, file)} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('docs/decisions', () => {
  const files = readdirSync(decisionsDir)
    .filter((name) => /^\d{3}-.+\.md$/.test(name))
    .sort();
  const index = read(path.join(decisionsDir, 'README.md'));
  const rows = new Map(
    [...index.matchAll(/^\| \[(\d{3})\]\(([^)]+)\) \| (.+?) \| (\d{4}-\d{2}-\d{2}) \| (.+?) \|$/gm)].map((m) => [
      m[2]!,
      { number: m[1]!, title: m[3]!, date: m[4]!, status: m[5]! },
    ]),
  );

  it('holds decisions with distinct numbers', () => {
    expect(files.length).toBeGreaterThan(0);
    const numbers = files.map((name) => name.slice(0, 3));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it.each(files)('%s has a title, a date and a status, and the index lists it as such', (name) => {
    const text = read(path.join(decisionsDir, name));
    const title = text.match(/^# (\d{3}) — (.+)$/m);
    const stamp = text.match(
      /^Date: (\d{4}-\d{2}-\d{2}) · Status: (Proposed|Accepted|Deprecated|Superseded by \d{3})$/m,
    );
    expect(title?.[1], 'a first line "# NNN — title"').toBe(name.slice(0, 3));
    expect(stamp, 'a line "Date: YYYY-MM-DD · Status: …"').not.toBeNull();
    expect(Number.isNaN(Date.parse(stamp![1]!))).toBe(false);
    expect(rows.get(name), `a row for ${name} in docs/decisions/README.md`).toEqual({
      number: name.slice(0, 3),
      title: title![2],
      date: stamp![1],
      status: stamp![2],
    });
  });

  it('lists no file that is not there', () => {
    expect([...rows.keys()].filter((name) => !files.includes(name))).toEqual([]);
  });
});

describe('docs/ARCHITECTURE.md, the map', () => {
  it('names only files and folders that exist', () => {
    const map = read(path.join(root, 'docs/ARCHITECTURE.md'));
    const named = new Set(
      [
        ...map.matchAll(
          /(?<![\w/.-])((?:app|components|lib|tooling|prisma|scripts|e2e|i18n|messages|docs)\/[\w\-./[\]()]*)/g,
        ),
      ]
        .map((match) => match[1]!.replace(/[.)]+$/, ''))
        .filter((name) => !/[<*{]/.test(name)),
    );
    const missing = [...named].filter((name) => !existsSync(path.join(root, name)));
    expect(named.size).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });

  it('is a map a newcomer reads in five minutes (under 200 lines)', () => {
    const lines = read(path.join(root, 'docs/ARCHITECTURE.md')).split('\n').length;
    expect(lines).toBeLessThan(200);
  });
});
