import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCalendlySignature, signCalendly, verifyCalendlySignature } from './calendly/verify';
import { signCal, verifyCalSignature } from './cal/verify';
import { signAcuity, verifyAcuitySignature } from './acuity/verify';

const enc = (s: string) => new TextEncoder().encode(s);

describe('signature parsers under fuzzing', () => {
  it('never throw on arbitrary headers and bodies, and only "ok" a signature made with the key', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.string({ maxLength: 200 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        (header, body, key) => {
          expect(() => parseCalendlySignature(header)).not.toThrow();
          expect(verifyCalendlySignature({ rawBody: enc(body), header, signingKey: key })).not.toBe('ok');
          expect(verifyCalSignature({ rawBody: enc(body), header, secret: key })).not.toBe('ok');
          expect(verifyAcuitySignature({ rawBody: enc(body), header, apiKey: key })).not.toBe('ok');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accept exactly the signed bytes: any change to body or key is refused', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 500 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.string({ minLength: 1, maxLength: 5 }),
        (body, key, extra) => {
          expect(
            verifyCalendlySignature({ rawBody: enc(body), header: signCalendly(body, key), signingKey: key }),
          ).toBe('ok');
          expect(
            verifyCalendlySignature({ rawBody: enc(body + extra), header: signCalendly(body, key), signingKey: key }),
          ).toBe('mismatch');
          expect(
            verifyCalendlySignature({ rawBody: enc(body), header: signCalendly(body, key), signingKey: key + extra }),
          ).toBe('mismatch');
          expect(verifyCalSignature({ rawBody: enc(body), header: signCal(body, key), secret: key })).toBe('ok');
          expect(verifyCalSignature({ rawBody: enc(body + extra), header: signCal(body, key), secret: key })).toBe(
            'mismatch',
          );
          expect(verifyAcuitySignature({ rawBody: enc(body), header: signAcuity(body, key), apiKey: key })).toBe('ok');
          expect(
            verifyAcuitySignature({ rawBody: enc(body + extra), header: signAcuity(body, key), apiKey: key }),
          ).toBe('mismatch');
          expect(
            verifyAcuitySignature({ rawBody: enc(body), header: signAcuity(body, key), apiKey: key + extra }),
          ).toBe('mismatch');
        },
      ),
      { numRuns: 300 },
    );
  });
});
