import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressesOf, internalAddressesOf, isInternalAddress } from '../../src/core/net/network-guard.js';

describe('internal addresses', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fd00::1',
    'fc00::5',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:127.0.0.1',
    '0:0:0:0:0:ffff:7f00:1',
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b:1::7f00:1',
    '64:ff9b:1::808:808',
    '2002:7f00:1::',
    '2002:a9fe:a9fe::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '100::1',
    'not-an-ip',
  ])('%s is internal', (a) => expect(isInternalAddress(a)).toBe(true));
  it.each(['140.82.112.3', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:50c0:8000::153', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    '%s is public',
    (a) => expect(isInternalAddress(a)).toBe(false),
  );

  it('judges an IPv4 address carried in IPv6, in every form and spelling, as the IPv4 address', () => {
    const forms = (v4: number[]) => {
      const [a, b, c, d] = v4 as [number, number, number, number];
      const hi = ((a << 8) | b).toString(16);
      const lo = ((c << 8) | d).toString(16);
      const q = v4.join('.');
      return [
        `::${q}`,
        `::${hi}:${lo}`,
        `::ffff:${q}`,
        `::ffff:${hi}:${lo}`,
        `::ffff:0:${q}`,
        `::ffff:0:${hi}:${lo}`,
        `64:ff9b::${q}`,
        `64:ff9b::${hi}:${lo}`,
        `2002:${hi}:${lo}::1`,
      ];
    };
    fc.assert(
      fc.property(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)), (v4) => {
        const expected = isInternalAddress(v4.join('.'));
        for (const form of forms(v4)) expect([form, isInternalAddress(form)]).toEqual([form, expected]);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a bracketed literal as the address inside, as a URL carries it', async () => {
    for (const url of ['http://[::127.0.0.1]/', 'http://[::ffff:0:127.0.0.1]/', 'http://[64:ff9b:1::7f00:1]/']) {
      expect(await internalAddressesOf(new URL(url).hostname)).toHaveLength(1);
    }
    expect(await addressesOf('[::1]')).toEqual(['::1']);
  });

  it('refuses a name when any one of its addresses is internal', async () => {
    expect(await internalAddressesOf('git.acme.test', async () => ['140.82.112.3', '10.0.0.7'])).toEqual(['10.0.0.7']);
    expect(await internalAddressesOf('git.acme.test', async () => ['140.82.112.3'])).toEqual([]);
  });
});
