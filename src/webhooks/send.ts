import type { Clock } from '../core/clock.js';
import { guardedFetch } from '../core/net/guarded-fetch.js';
import { checkedAddresses, GuardRefusal, type GuardPolicy } from '../core/net/network-guard.js';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** Whether private and loopback addresses may be reached (CI_ALLOW_PRIVATE_NETWORK, as CI automation), and the guard's lookup. */
export type SendPolicy = GuardPolicy;

/** The reason a URL may not receive deliveries by its form, or null: http(s) only, no credentials. */
function malformed(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must be an http or https URL';
  if (u.username || u.password) return 'must not carry credentials';
  return null;
}

function refusal(e: GuardRefusal): string {
  return e.internal.length > 0
    ? `leads to a private or internal address (${e.internal[0]}); the operator may allow it with CI_ALLOW_PRIVATE_NETWORK`
    : `names a host that does not resolve (${e.host})`;
}

/** The reason a URL may not receive deliveries, or null: http(s) only, and the network guard's addresses. */
export async function refusedUrl(url: string, policy: SendPolicy): Promise<string | null> {
  const problem = malformed(url);
  if (problem || policy.allowPrivateNetwork) return problem;
  try {
    await checkedAddresses(new URL(url).hostname, policy);
    return null;
  } catch (e) {
    if (e instanceof GuardRefusal) return refusal(e);
    throw e;
  }
}

/**
 * POSTs one delivery: 2xx within `timeoutMs` is success. The guarded fetch looks the host up
 * once and connects to the addresses the network guard checked (a second lookup could answer
 * otherwise). Redirects are not followed: a 3xx is a failure.
 */
export async function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  policy: SendPolicy,
  clock: Clock,
  timeoutMs: number,
): Promise<SendResult> {
  const problem = malformed(url);
  if (problem) return { ok: false, statusCode: null, error: `The URL ${problem}.` };
  const signal = clock.abortAfter(timeoutMs);
  const failure = (e: unknown): string => {
    if (e instanceof GuardRefusal) return `The URL ${refusal(e)}.`;
    if (signal.aborted) return `No answer within ${timeoutMs / 1000} s`;
    return e instanceof Error ? e.message : String(e);
  };
  try {
    const res = await guardedFetch(policy)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'orgctl-webhooks/1', ...headers },
      body,
      signal,
    });
    const ok = res.status >= 200 && res.status < 300;
    // Only the status counts; the body is read to its end (within the timeout) and dropped.
    return await res.arrayBuffer().then(
      () => ({ ok, statusCode: res.status, error: ok ? null : `HTTP ${res.status}` }),
      (e: unknown) => ({ ok: false, statusCode: res.status, error: failure(e) }),
    );
  } catch (e) {
    return { ok: false, statusCode: null, error: failure(e) };
  }
}
