import { describe, expect, it } from 'vitest';
import { endpointFormProblem, isPublicAddress } from './outbound-fetch';

// What counts as a public address for a tenant-given endpoint (issue 28, item 2); the refusals in
// use and at saving are tested against real servers in lib/locks/ttlock-credentials.test.ts.
describe('public addresses', () => {
  it('takes public IPv4 and IPv6 addresses, also in IPv4-mapped, NAT64 and 6to4 form', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ])
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: true });
  });

  it('refuses private, loopback, link-local, shared, reserved and documentation addresses in every form', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '10.0.0.1',
      '100.64.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '198.18.0.1',
      '192.0.2.1',
      '::',
      '::1',
      '::127.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::1',
      '2002:c0a8:101::1',
      'fe80::1',
      'fe80::1%eth0',
      'fd12:3456::1',
      'fc00::1',
      'ff02::1',
      '2001:db8::1',
      '2001::1',
      'not-an-address',
    ])
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false });
  });

  it('reads an endpoint’s form without resolving it', () => {
    expect(endpointFormProblem('https://euapi.ttlock.com', false)).toBeNull();
    expect(endpointFormProblem('https://euapi.ttlock.com/', false)).toBeNull();
    expect(endpointFormProblem('http://euapi.ttlock.com', false)).toBe('not_https');
    expect(endpointFormProblem('ftp://euapi.ttlock.com', false)).toBe('invalid');
    expect(endpointFormProblem('https://euapi.ttlock.com?x=1', false)).toBe('invalid');
    expect(endpointFormProblem('https://[::1]:8443', false)).toBe('private');
    expect(endpointFormProblem('https://0x7f.1', false)).toBe('private');
    // The operator's leave (ALLOW_PRIVATE_FETCH=1): the simulator on loopback, plain http.
    expect(endpointFormProblem('http://127.0.0.1:4010', true)).toBeNull();
  });
});
