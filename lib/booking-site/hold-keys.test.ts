import { describe, expect, it } from 'vitest';
import { addressKey, mailboxKey, normalMailbox } from './hold-keys';

describe('one mailbox is one key (issue 43.4)', () => {
  it('ignores case, a +tag, and the dots Gmail ignores', () => {
    const one = mailboxKey('hana@example.com');
    for (const same of ['Hana@Example.com', ' hana+booking@example.com ', 'HANA+a+b@EXAMPLE.COM', 'hana@example.com.'])
      expect(mailboxKey(same), same).toBe(one);
    expect(normalMailbox('Ha.Na+x@googlemail.com')).toBe('hana@gmail.com');
    expect(mailboxKey('h.a.n.a@gmail.com')).toBe(mailboxKey('hana+1@googlemail.com'));
  });

  it('keeps other mailboxes apart: dots count where the provider does not say otherwise, as do other domains', () => {
    expect(mailboxKey('ha.na@example.com')).not.toBe(mailboxKey('hana@example.com'));
    expect(mailboxKey('hana@example.org')).not.toBe(mailboxKey('hana@example.com'));
    expect(mailboxKey('+hana@example.com')).not.toBe(mailboxKey('@example.com'));
    expect(mailboxKey('hana@example.com')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keys client addresses, none for an unknown one', () => {
    expect(addressKey('203.0.113.7')).toMatch(/^[0-9a-f]{64}$/);
    expect(addressKey('203.0.113.7')).not.toBe(addressKey('203.0.113.8'));
    expect(addressKey('2001:DB8::1')).toBe(addressKey('2001:db8::1'));
    expect(addressKey('unknown')).toBeNull();
    expect(addressKey('')).toBeNull();
    expect(addressKey('203.0.113.7')).not.toBe(mailboxKey('203.0.113.7'));
  });
});
