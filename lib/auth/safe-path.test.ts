import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './safe-path';

describe('safeReturnPath', () => {
  it('keeps same-site paths and refuses everything that leaves the site', () => {
    expect(safeReturnPath('/manage?x=1#a', '/desk')).toBe('/manage?x=1#a');
    for (const bad of ['//evil.example/x', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '', undefined, 42, `/${'a'.repeat(3000)}`]) {
      expect(safeReturnPath(bad, '/desk')).toBe('/desk');
    }
  });
});
