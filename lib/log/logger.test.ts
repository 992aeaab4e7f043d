import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACT_PATHS } from './logger';

describe('log redaction', () => {
  it('replaces sensitive fields at any of the first three levels', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
    log.info(
      {
        pin: '482913',
        password: 'hunter22',
        token: 'guest-token-abc',
        headers: { authorization: 'Bearer uok_secret', cookie: 'session=abc', 'set-cookie': 'x=y' },
        request: { body: { pin: '1' }, nested: { secret: 'whsec_123', key: 'uok_live' } },
        requestId: 'req-1',
      },
      'hello',
    );
    const line = lines.join('');
    for (const leaked of [
      '482913',
      'hunter22',
      'guest-token-abc',
      'uok_secret',
      'session=abc',
      'x=y',
      'whsec_123',
      'uok_live',
    ]) {
      expect(line).not.toContain(leaked);
    }
    expect(line).toContain('req-1');
  });
});
