import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Clock } from '../core/clock.js';
import { addressesOf, isInternalAddress, type Resolver } from '../core/net/network-guard.js';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

export interface SendPolicy {
  /** Whether private and loopback addresses may be reached (CI_ALLOW_PRIVATE_NETWORK, as CI automation). */
  allowPrivateNetwork: boolean;
  resolve?: Resolver;
}

/** The reason a URL may not receive deliveries, or null: http(s) only, and the network guard's addresses. */
export async function refusedUrl(url: string, policy: SendPolicy): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must be an http or https URL';
  if (u.username || u.password) return 'must not carry credentials';
  if (policy.allowPrivateNetwork) return null;
  let addresses: string[];
  try {
    addresses = await addressesOf(u.hostname, policy.resolve);
  } catch {
    return `names a host that does not resolve (${u.hostname})`;
  }
  const internal = addresses.filter(isInternalAddress);
  return internal.length > 0 ? `leads to a private or internal address (${internal[0]}); the operator may allow it with CI_ALLOW_PRIVATE_NETWORK` : null;
}

/**
 * POSTs one delivery: 2xx within `timeoutMs` is success. The host is resolved and checked by the
 * network guard once, and the connection is made to the addresses checked (a second lookup could
 * answer otherwise). Redirects are not followed: a 3xx is a failure.
 */
export async function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  policy: SendPolicy,
  clock: Clock,
  timeoutMs: number,
): Promise<SendResult> {
  const refused = await refusedUrl(url, policy);
  if (refused) return { ok: false, statusCode: null, error: `The URL ${refused}.` };
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await addressesOf(host, policy.resolve);
  const pinned: LookupFunction = (_name, options, cb) => {
    const address = addresses[0]!;
    const family = isIP(address);
    if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else cb(null, address, family);
  };
  const options: RequestOptions = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'orgctl-webhooks/1', ...headers },
    lookup: pinned,
    signal: clock.abortAfter(timeoutMs),
  };
  return new Promise<SendResult>((resolve) => {
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, options, (res) => {
      res.resume();
      res.on('end', () => {
        const code = res.statusCode ?? 0;
        resolve({ ok: code >= 200 && code < 300, statusCode: code, error: code >= 200 && code < 300 ? null : `HTTP ${code}` });
      });
      res.on('error', (e) => resolve({ ok: false, statusCode: res.statusCode ?? null, error: e.message }));
    });
    req.on('error', (e) => resolve({ ok: false, statusCode: null, error: e.name === 'AbortError' ? `No answer within ${timeoutMs / 1000} s` : e.message }));
    req.end(body);
  });
}
