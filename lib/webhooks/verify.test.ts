import { describe, expect, it } from 'vitest';
import { parseCalendlySignature, signCalendly, verifyCalendlySignature } from './calendly/verify';
import { signCal, verifyCalSignature } from './cal/verify';
import { signAcuity, verifyAcuitySignature } from './acuity/verify';
import { isStaleSvixTimestamp, parseSvixHeaders, verifySeamSignature } from './seam/verify';
import { newSvixSecret, signSvix } from '../../tooling/testing/svix';

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

describe('Acuity signatures', () => {
  const raw = 'action=appointment.scheduled&id=123&calendarID=7&appointmentTypeID=5151';
  const key = '0123456789abcdef0123456789abcdef';
  // Computed apart from this code (Python's hmac and base64): base64 of HMAC-SHA256 of the raw form body.
  const KNOWN = 'osmLNTaty9nwfXIOyGPXyBiBsJZ5KPCXzh9c8Bv3OOA=';

  it('accept the base64 HMAC of the raw form body with the API key and refuse everything else', () => {
    expect(signAcuity(raw, key)).toBe(KNOWN);
    expect(verifyAcuitySignature({ rawBody: body(raw), header: KNOWN, apiKey: key })).toBe('ok');
    expect(verifyAcuitySignature({ rawBody: body(raw), header: ` ${KNOWN.slice(0, -1)} `, apiKey: key })).toBe('ok');
    expect(verifyAcuitySignature({ rawBody: body(raw), header: signAcuity(raw, 'other'), apiKey: key })).toBe(
      'mismatch',
    );
    expect(verifyAcuitySignature({ rawBody: body(`${raw}&x=1`), header: KNOWN, apiKey: key })).toBe('mismatch');
    const hex = Buffer.from(KNOWN, 'base64').toString('hex');
    for (const bad of [null, '', 'abc', hex, `sha256=${KNOWN}`, KNOWN.replace(/=$/, '==')]) {
      expect(verifyAcuitySignature({ rawBody: body(raw), header: bad, apiKey: key })).toBe('malformed');
    }
  });
});

describe('Seam (Svix) signatures', () => {
  const secret = newSvixSecret();
  const raw = '{"event_type":"device.connected"}';
  const now = Math.floor(Date.now() / 1000);
  const headersFor = (id: string, t: number, signature: string) =>
    parseSvixHeaders({ id, timestamp: String(t), signature })!;

  it('accept the tenant’s secret and refuse another secret, a changed body or id, and a non-Svix secret', () => {
    const good = headersFor('msg_1', now, signSvix(secret, 'msg_1', now, raw));
    expect(verifySeamSignature({ body: raw, headers: good, secret })).toBe('ok');
    expect(verifySeamSignature({ body: raw, headers: good, secret: newSvixSecret() })).toBe('mismatch');
    expect(verifySeamSignature({ body: `${raw} `, headers: good, secret })).toBe('mismatch');
    expect(verifySeamSignature({ body: raw, headers: { ...good, id: 'msg_2' }, secret })).toBe('mismatch');
    expect(verifySeamSignature({ body: raw, headers: good, secret: 'not base64 !' })).toBe('mismatch');
  });

  it('accept any of several signatures (secret rotation), and a signed body that is not JSON', () => {
    const other = signSvix(newSvixSecret(), 'msg_3', now, raw);
    const headers = headersFor('msg_3', now, `${other} ${signSvix(secret, 'msg_3', now, raw)}`);
    expect(verifySeamSignature({ body: raw, headers, secret })).toBe('ok');
    const text = 'not json';
    expect(
      verifySeamSignature({
        body: text,
        headers: headersFor('msg_4', now, signSvix(secret, 'msg_4', now, text)),
        secret,
      }),
    ).toBe('ok');
  });

  it('refuse a timestamp more than 5 minutes off either way, and malformed headers', () => {
    expect(isStaleSvixTimestamp(now - 301, now * 1000)).toBe(true);
    expect(isStaleSvixTimestamp(now + 301, now * 1000)).toBe(true);
    expect(isStaleSvixTimestamp(now - 290, now * 1000)).toBe(false);
    const old = headersFor('msg_5', now - 400, signSvix(secret, 'msg_5', now - 400, raw));
    expect(verifySeamSignature({ body: raw, headers: old, secret })).toBe('mismatch');
    const sig = signSvix(secret, 'msg_6', now, raw);
    for (const [id, timestamp, signature] of [
      [null, String(now), sig],
      ['msg_6', null, sig],
      ['msg_6', String(now), null],
      ['', String(now), sig],
      ['msg 6', String(now), sig],
      ['msg_6', `${now}x`, sig],
      ['msg_6', '-1', sig],
      ['msg_6', String(now), 'v1'],
      ['msg_6', String(now), sig.replace('v1,', 'v1=')],
      ['msg_6', String(now), `${sig}\n`.repeat(2)],
    ] as const) {
      expect(parseSvixHeaders({ id, timestamp, signature })).toBeNull();
    }
    expect(parseSvixHeaders({ id: 'msg_6', timestamp: String(now), signature: sig })).toEqual({
      id: 'msg_6',
      timestamp: now,
      signature: sig,
    });
  });
});
