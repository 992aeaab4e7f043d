import { describe, expect, it } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import { messages } from './catalog';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [p, v] of leaves(value, path)) out.set(p, v);
  }
  return out;
}

const en = leaves(messages.en);
const ja = leaves(messages.ja);

describe('the message catalog (messages/*.json)', () => {
  it('has the same keys in English and Japanese', () => {
    expect([...ja.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it('has no empty message', () => {
    for (const [key, value] of [...en, ...ja]) expect(value.trim(), key).not.toBe('');
  });

  it('parses every message as ICU and uses the same arguments in both languages', () => {
    const args = (locale: string, message: string) => {
      const ast = new IntlMessageFormat(message, locale).getAst();
      return ast
        .flatMap((el) => ('value' in el && el.type !== 0 ? [String(el.value)] : []))
        .sort()
        .join(',');
    };
    for (const [key, message] of en) expect(args('ja', ja.get(key)!), key).toBe(args('en', message));
  });
});
