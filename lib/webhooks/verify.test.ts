import { describe, expect, it } from 'vitest';
import { parseCalendlySignature, signCalendly, verifyCalendlySignature } from './calendly/verify';
import { signCal, verifyCalSignature } from './cal/verify';

const body = (text: string) => new TextEncoder().encode(text);

describe('Calendly signatures', () => {
  it('accept the right key within 180 s and refuse a wrong key, a stale or future t, and malformed headers', () => {
    const raw = '{"event":"invitee.created"}';
    const now = Date.now();
    const header = signCalendly(raw, 'key-1', Math.floor(now / 1000));
    expect(verifyCalendlySignature({ rawBody: body(raw), header, signingKey: 'key-1', now })).toBe('ok');
    expect(verifyCalendlySignature({ rawBody: body(raw), header, signingKey: 'key-2', now })).toBe('mismatch');
    expect(verifyCalendlySignature({ rawBody: body(`${raw} `), header, signingKey: 'key-1', now })).toBe('mismatch');
    expect(
      verifyCalendlySignature({
        rawBody: body(raw),
        header: signCalendly(raw, 'key-1', Math.floor(now / 1000) - 181),
        signingKey: 'key-1',
        now,
      }),
    ).toBe('stale');
    expect(
      verifyCalendlySignature({
        rawBody: body(raw),
        header: signCalendly(raw, 'key-1', Math.floor(now / 1000) + 181),
        signingKey: 'key-1',
        now,
      }),
    ).toBe('stale');
    for (const bad of [
      null,
      '',
      't=1',
      'v1=abc',
      't=x,v1=' + 'a'.repeat(64),
      `t=1,t=2,v1=${'a'.repeat(64)}`,
      `t=1,v1=${'g'.repeat(64)}`,
      'garbage',
    ]) {
      expect(verifyCalendlySignature({ rawBody: body(raw), header: bad, signingKey: 'key-1', now })).toBe('malformed');
    }
  });

  it('accept any of several v1 values (secret rotation)', () => {
    const raw = '{}';
    const t = Math.floor(Date.now() / 1000);
    const good = signCalendly(raw, 'k', t).split('v1=')[1]!;
    expect(parseCalendlySignature(`t=${t},v1=${'0'.repeat(64)},v1=${good}`)).toEqual({ t, v1: ['0'.repeat(64), good] });
    expect(
      verifyCalendlySignature({
        rawBody: body(raw),
        header: `t=${t},v1=${'0'.repeat(64)},v1=${good}`,
        signingKey: 'k',
      }),
    ).toBe('ok');
  });
});

describe('Cal.com signatures', () => {
  it('accept the hex HMAC of the raw body and refuse everything else', () => {
    const raw = '{"triggerEvent":"BOOKING_CREATED"}';
    expect(verifyCalSignature({ rawBody: body(raw), header: signCal(raw, 's'), secret: 's' })).toBe('ok');
    expect(verifyCalSignature({ rawBody: body(raw), header: signCal(raw, 's').toUpperCase(), secret: 's' })).toBe('ok');
    expect(verifyCalSignature({ rawBody: body(raw), header: signCal(raw, 'other'), secret: 's' })).toBe('mismatch');
    for (const bad of [null, '', 'no-secret-provided', 'abc', `sha256=${signCal(raw, 's')}`]) {
      expect(verifyCalSignature({ rawBody: body(raw), header: bad, secret: 's' })).toBe('malformed');
    }
  });
});
