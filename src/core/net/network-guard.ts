import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a repository URL must not lead to unless explicitly allowed: the service must not
 * become a proxy into its own network (loopback, private, link-local, CGNAT, multicast, reserved).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address is internal; IPv4 embedded in IPv6 (mapped, NAT64, 6to4) is judged as IPv4. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const lower = address.toLowerCase();
  const embedded = /^(?:::ffff:|::ffff:0:|64:ff9b::|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (embedded) return isInternalAddress(embedded[1]!);
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const n = (parseInt(hex[1]!, 16) << 16) | parseInt(hex[2]!, 16);
    return isInternalAddress([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
  }
  if (lower.startsWith('2002:')) {
    const [, a = '0', b = '0'] = lower.split(':');
    const n = (parseInt(a, 16) << 16) | parseInt(b, 16);
    return isInternalAddress([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
  }
  return blocked.check(address, 'ipv6');
}

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The addresses `host` stands for: itself when it is an IP literal (bracketed or not), else what it resolves to. */
export async function addressesOf(host: string, resolve: Resolver = systemResolver): Promise<string[]> {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return isIP(bare) ? [bare] : await resolve(bare);
}

/**
 * Resolves `host` and returns the internal addresses among them (empty: the host is public).
 * Every address is checked: one internal answer is enough to refuse.
 */
export async function internalAddressesOf(host: string, resolve: Resolver = systemResolver): Promise<string[]> {
  return (await addressesOf(host, resolve)).filter(isInternalAddress);
}
