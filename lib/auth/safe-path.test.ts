import { describe, expect, it } from 'vitest';
import { safeRedirectUrl, safeReturnPath } from './safe-path';

const ORIGIN = 'https://app.example';

/** What a browser on one of our pages does with the value: where it lands, and the path it asks for. */
function resolvedByBrowser(path: string): { origin: string; path: string } {
  const url = new URL(path, `${ORIGIN}/sign-in?callbackUrl=x`);
  return { origin: url.origin, path: `${url.pathname}${url.search}${url.hash}` };
}

const ATTACKS = [
  '//evil.example/x',
  '/\\evil.example',
  'https://evil.example',
  'javascript:alert(1)',
  // Dot segments that normalise into a scheme-relative path.
  '/.//evil.example',
  '/%2e//evil.example',
  '/%2E//evil.example',
  '/a/..//evil.example',
  '/a/%2e%2e//evil.example',
  '/..//evil.example',
  '/x/../..//evil.example',
  '/.\\/evil.example',
  '/.\\\\evil.example',
  '/./\\evil.example',
  '/%2e/\\evil.example',
  // Tabs and newlines are dropped by URL parsers, wherever they are.
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/.\t//evil.example',
  ' //evil.example',
  '\t/desk',
  // Encoded slashes and backslashes right after the first slash (once or twice encoded).
  '/%2f%2fevil.example',
  '/%2F/evil.example',
  '/%5c%5cevil.example',
  '/%5C/evil.example',
  '/%252f%252fevil.example',
  '/\\/evil.example',
  '/\u0000/evil.example',
];

describe('safeReturnPath', () => {
  it('keeps same-site paths, normalised', () => {
    expect(safeReturnPath('/manage?x=1#a', '/desk')).toBe('/manage?x=1#a');
    expect(safeReturnPath('/desk/reservations/0a7e?from=2026-12-01&to=a%2Fb', '/x')).toBe(
      '/desk/reservations/0a7e?from=2026-12-01&to=a%2Fb',
    );
    expect(safeReturnPath('/desk/./a/../b', '/x')).toBe('/desk/b');
    expect(safeReturnPath('/desk?next=//evil.example', '/x')).toBe('/desk?next=//evil.example');
  });

  it('refuses everything that leaves the site, also after normalisation', () => {
    for (const bad of [...ATTACKS, '', undefined, 42, null, {}, `/${'a'.repeat(3000)}`]) {
      expect({ bad, result: safeReturnPath(bad, '/desk') }).toEqual({ bad, result: '/desk' });
    }
  });

  it('returns only paths a browser resolves to this origin, and that a second pass leaves unchanged', () => {
    const inputs = [
      ...ATTACKS,
      '/',
      '/desk',
      '/a//b',
      '/a/.//b',
      '/desk/../manage',
      '/%2e%2e/desk',
      '/a?b=/\\c#//d',
      '/ü/ß?q=é',
      '/a b',
    ];
    for (const input of inputs) {
      const result = safeReturnPath(input, '/desk');
      expect(result.startsWith('//') || result.startsWith('/\\')).toBe(false);
      expect({ input, origin: resolvedByBrowser(result).origin }).toEqual({ input, origin: ORIGIN });
      expect({ input, again: safeReturnPath(result, '/other') }).toEqual({ input, again: result });
      expect({ input, browser: resolvedByBrowser(result).path }).toEqual({ input, browser: result });
    }
  });
});

describe('safeRedirectUrl (next-auth redirect callback)', () => {
  it('keeps same-origin URLs and paths, and sends everything else to the fallback on this origin', () => {
    expect(safeRedirectUrl('/manage?x=1', ORIGIN, '/desk')).toBe(`${ORIGIN}/manage?x=1`);
    expect(safeRedirectUrl(`${ORIGIN}/manage`, ORIGIN, '/desk')).toBe(`${ORIGIN}/manage`);
    expect(safeRedirectUrl(`${ORIGIN}/.//evil.example`, ORIGIN, '/desk')).toBe(`${ORIGIN}/desk`);
    expect(safeRedirectUrl(`${ORIGIN}//evil.example`, ORIGIN, '/desk')).toBe(`${ORIGIN}/desk`);
    expect(safeRedirectUrl(`${ORIGIN}.evil.example/x`, ORIGIN, '/desk')).toBe(`${ORIGIN}/desk`);
    expect(safeRedirectUrl(`${ORIGIN}@evil.example/x`, ORIGIN, '/desk')).toBe(`${ORIGIN}/desk`);
    expect(safeRedirectUrl('http://app.example/manage', ORIGIN, '/desk')).toBe(`${ORIGIN}/desk`);
    for (const bad of ATTACKS) {
      const result = safeRedirectUrl(bad, ORIGIN, '/desk');
      expect({ bad, origin: new URL(result).origin, path: new URL(result).pathname }).toEqual({
        bad,
        origin: ORIGIN,
        path: '/desk',
      });
    }
  });
});
