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

  it('judges every IPv6 form that carries an IPv4 address by that address, or refuses it', () => {
    const judged = (addresses: string[]) => addresses.map((address) => [address, isPublicAddress(address)]);
    const carried = [
      // IPv4-translated (RFC 2765/6145), dotted and in hex
      '::ffff:0:127.0.0.1',
      '::ffff:0:10.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:a9fe:a9fe',
      '0:0:0:0:ffff:0:192.168.0.1',
      // IPv4-mapped, dotted and in hex
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '0:0:0:0:0:ffff:a00:1',
      // NAT64's well-known prefix, dotted and in hex
      '64:ff9b::127.0.0.1',
      '64:ff9b::a00:1',
      // 6to4
      '2002:a00:1::1',
      '2002:a9fe:a9fe:1::1',
    ];
    expect(judged(carried)).toEqual(carried.map((address) => [address, false]));
    const publicCarried = ['::ffff:0:8.8.8.8', '::ffff:0:808:808', '::ffff:808:808', '64:ff9b::8.8.8.8'];
    expect(judged(publicCarried)).toEqual(publicCarried.map((address) => [address, true]));
    const refused = [
      // IPv4-compatible (deprecated), even of a public address
      '::8.8.8.8',
      '::127.0.0.1',
      '::a00:1',
      // local-use NAT64, Teredo, the unspecified address, benchmarking
      '64:ff9b:1::808:808',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '::',
      '0:0:0:0:0:0:0:0',
      '2001:2::1',
      // outside global unicast (2000::/3): nothing there is routed on the internet
      '1::1',
      '4000::1',
      'e000::1',
    ];
    expect(judged(refused)).toEqual(refused.map((address) => [address, false]));
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
