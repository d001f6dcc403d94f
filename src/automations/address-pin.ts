import { isIP } from 'node:net';

/**
 * The addresses a host name was checked against, which git must connect to instead of resolving
 * the name again: a second lookup could answer differently (DNS rebinding) and lead into the
 * service's own network.
 */
export interface AddressPin {
  host: string;
  port: number;
  scheme: 'https' | 'http' | 'ssh' | 'git';
  addresses: string[];
}

export interface PinnedInvocation {
  /** `-c` options for git. */
  config: string[];
  /** Environment for git. */
  env: Record<string, string>;
}

const NONE: PinnedInvocation = { config: [], env: {} };

const literal = (address: string) => (isIP(address) === 6 ? `[${address}]` : address);

/**
 * How git reaches the checked addresses without resolving the host name itself: curl's resolve
 * list for HTTP (TLS still verifies the certificate against the name), ssh's HostName with the
 * name kept as the host-key alias, and for git:// the address written into the URL (that
 * protocol has neither). Only IP literals are used, so nothing here can carry shell syntax into
 * GIT_SSH_COMMAND.
 */
export function pinnedInvocation(pin: AddressPin | undefined): PinnedInvocation {
  if (!pin || isIP(pin.host.replace(/^\[|\]$/g, ''))) return NONE;
  const addresses = pin.addresses.filter((a) => isIP(a) !== 0);
  if (addresses.length === 0) return NONE;
  switch (pin.scheme) {
    case 'http':
    case 'https':
      return { config: ['-c', `http.curloptResolve=${pin.host}:${pin.port}:${addresses.map(literal).join(',')}`], env: {} };
    case 'ssh':
      return { config: [], env: { GIT_SSH_COMMAND: `ssh -o BatchMode=yes -o HostName=${addresses[0]} -o HostKeyAlias=${pin.host}` } };
    case 'git':
      return NONE;
  }
}

/** The URL git is given: for git://, the host replaced by the checked address (see above). */
export function pinnedUrl(pushUrl: string, pin: AddressPin | undefined): string {
  if (!pin || pin.scheme !== 'git' || isIP(pin.host.replace(/^\[|\]$/g, ''))) return pushUrl;
  const address = pin.addresses.find((a) => isIP(a) !== 0);
  return address ? pushUrl.replace(/^git:\/\/[^/]*/i, `git://${literal(address)}:${pin.port}`) : pushUrl;
}
