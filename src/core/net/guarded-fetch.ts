import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { checkedAddresses, type GuardPolicy } from './network-guard.js';

/** The part of `fetch`'s options that requests made on someone's behalf use. */
export interface GuardedRequest {
  method?: string;
  headers?: Record<string, string> | Headers;
  body?: string | Uint8Array | ArrayBuffer | URLSearchParams | ReadableStream | null;
  signal?: AbortSignal;
}

export type GuardedFetch = (url: string | URL, init?: GuardedRequest) => Promise<Response>;

/**
 * `fetch` for a URL someone else chose (a webhook endpoint, an identity provider): the host is
 * looked up once, every address is judged by the network guard (GuardRefusal when one is
 * internal, unless the policy allows private networks), and the connection goes only to those
 * addresses. The URL's name stays the Host header and the TLS server name, so the certificate is
 * still checked against it. Redirects are not followed (a 3xx is the answer): one could lead past
 * the check. Each request has a connection of its own, since a pooled one may have been opened
 * under another policy.
 */
export function guardedFetch(policy: GuardPolicy): GuardedFetch {
  return async (input, init = {}) => {
    const url = new URL(input);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`${url.protocol} URLs are not fetched`);
    init.signal?.throwIfAborted();
    const addresses = await untilAborted(checkedAddresses(url.hostname, policy), init.signal);
    const body = await bytesOf(init.body);
    const headers = new Headers(init.headers);
    if (init.body instanceof URLSearchParams && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    if (body !== undefined) headers.set('content-length', String(body.byteLength));
    const method = (init.method ?? 'GET').toUpperCase();
    return new Promise<Response>((resolve, reject) => {
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        { method, headers: Object.fromEntries(headers), lookup: pinnedLookup(addresses), agent: false, signal: init.signal },
        (res) => {
          try {
            resolve(responseOf(res, method));
          } catch (e) {
            res.destroy();
            reject(e);
          }
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}

/** A lookup that answers with the checked addresses (of the family asked for) and asks no resolver. */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  return (host, options, callback) => {
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    const usable = addresses.filter((a) => family === 0 || isIP(a) === family);
    if (usable.length === 0) {
      callback(Object.assign(new Error(`${host} has no checked IPv${family} address`), { code: 'ENOTFOUND' }), '');
    } else if (options.all) {
      callback(
        null,
        usable.map((address) => ({ address, family: isIP(address) })),
      );
    } else {
      callback(null, usable[0]!, isIP(usable[0]!));
    }
  };
}

async function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  let onAbort = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

async function bytesOf(body: GuardedRequest['body']): Promise<Uint8Array | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}

const NULL_BODY = new Set([204, 205, 304]);

function responseOf(res: IncomingMessage, method: string): Response {
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 599) throw new Error(`invalid HTTP status ${status}`);
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  if (NULL_BODY.has(status) || method === 'HEAD') {
    res.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status, headers });
}
