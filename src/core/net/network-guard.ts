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
  ['100::', 64],
  // NAT64 for local use (RFC 8215): by definition not a global address, whatever it embeds.
  ['64:ff9b:1::', 48],
  // Teredo: the client address inside is obfuscated, and a tunnel to anywhere.
  ['2001::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/**
 * The eight 16-bit groups of an IPv6 address, whatever its textual form (compressed, dotted
 * tail, upper case): the URL parser's serialization is hex groups with at most one `::`.
 * Undefined for what is not one (a zone index, say).
 */
function ipv6Groups(address: string): number[] | undefined {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head = '', tail] = canonical.split('::');
  const split = (s: string) => (s === '' ? [] : s.split(':'));
  const groups = tail === undefined ? split(head) : [...split(head), ...Array<string>(8 - split(head).length - split(tail).length).fill('0'), ...split(tail)];
  return groups.map((g) => parseInt(g, 16));
}

const dotted = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');

/**
 * Whether an IP address is internal. An IPv4 address carried in IPv6 is judged as that IPv4
 * address, in every form: IPv4-compatible (`::a.b.c.d`), IPv4-mapped (`::ffff:a.b.c.d`),
 * IPv4-translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`), written
 * dotted or in hex. What does not parse is internal: refused rather than guessed.
 */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const g = ipv6Groups(address);
  if (!g || g.length !== 8) return true;
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(5) && (g[5] === 0 || g[5] === 0xffff)) return isInternalAddress(dotted(g[6]!, g[7]!));
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return isInternalAddress(dotted(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isInternalAddress(dotted(g[6]!, g[7]!));
  if (g[0] === 0x2002) return isInternalAddress(dotted(g[1]!, g[2]!));
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

/** What the guard lets through: every address when the operator allows private networks. */
export interface GuardPolicy {
  allowPrivateNetwork: boolean;
  /** The DNS lookup; the system's (`dns.lookup`, every address) unless a test passes another. */
  resolve?: Resolver;
}

/** Why the guard will not connect to a host: it does not resolve, or leads to an internal address (`internal`). */
export class GuardRefusal extends Error {
  override readonly name = 'GuardRefusal';
  constructor(
    message: string,
    readonly host: string,
    readonly internal: readonly string[] = [],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The addresses to connect to for `host`, from one lookup, each judged: a connection must go to
 * these and never look the name up again, since a second answer could differ (DNS rebinding)
 * and lead into the service's own network. Throws GuardRefusal.
 */
export async function checkedAddresses(host: string, policy: GuardPolicy): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await addressesOf(host, policy.resolve);
  } catch (e) {
    throw new GuardRefusal(`${host} does not resolve: ${e instanceof Error ? e.message : String(e)}`, host, [], { cause: e });
  }
  if (addresses.length === 0) throw new GuardRefusal(`${host} has no address`, host);
  if (policy.allowPrivateNetwork) return addresses;
  const internal = addresses.filter(isInternalAddress);
  if (internal.length > 0) throw new GuardRefusal(`${host} leads to a private or internal address (${internal.join(', ')})`, host, internal);
  return addresses;
}
