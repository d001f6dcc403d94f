import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../http/errors.js';
import { listenerOrigin } from '../http/listener-origin.js';
import { sameSecret } from './secrets.js';
import type { SignedIn } from './service.js';

export const CSRF_HEADER = 'x-csrf-token';

/**
 * Browsers take a `__Host-` cookie only with Secure, which they accept from HTTPS and from
 * loopback addresses (trustworthy origins). Plain HTTP on another address (a LAN IP) would get
 * no cookie at all, so there the names lose the prefix and the Secure flag; those names are
 * never read on a secure origin, where another site could otherwise plant them. Behind a proxy
 * that ends TLS the request itself is plain HTTP: an https PUBLIC_URL (`request.publicUrl`), or
 * X-Forwarded-Proto from a trusted proxy (`request.protocol`, TRUST_PROXY), says the browser is on HTTPS.
 */
function secureOrigin(request: FastifyRequest): boolean {
  if (request.protocol === 'https' || request.publicUrl.startsWith('https://')) return true;
  const host = request.hostname.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

const names = (request: FastifyRequest) =>
  secureOrigin(request)
    ? { session: '__Host-orgctl_session', csrf: '__Host-orgctl_csrf', secure: true }
    : { session: 'orgctl_session', csrf: 'orgctl_csrf', secure: false };

/** The session cookie's token, if the request carries one. Bearer keys are never read from cookies. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const value = request.cookies?.[names(request).session];
  return value === undefined || value === '' ? undefined : value;
}

export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn): void {
  const n = names(request);
  const common = { path: '/', secure: n.secure, expires: signedIn.expiresAt };
  reply.setCookie(n.session, signedIn.token, { ...common, httpOnly: true, sameSite: 'lax' });
  // Readable by the page, which echoes it in the CSRF header (double submit).
  reply.setCookie(n.csrf, signedIn.csrfToken, { ...common, httpOnly: false, sameSite: 'strict' });
  reply.header('cache-control', 'no-store');
}

export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply): void {
  const n = names(request);
  reply.clearCookie(n.session, { path: '/', secure: n.secure, httpOnly: true, sameSite: 'lax' });
  reply.clearCookie(n.csrf, { path: '/', secure: n.secure, sameSite: 'strict' });
}

/**
 * Whether the request comes from a page of this origin: `Sec-Fetch-Site: same-origin`, or
 * where a browser sends no Sec-Fetch-Site (plain HTTP to a LAN address), an Origin equal to the
 * listener's own origin or to PUBLIC_URL's.
 */
function fromSameOrigin(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  return origin === listenerOrigin(request) || (publicUrl !== undefined && origin === new URL(publicUrl).origin);
}

/**
 * The refusal of a cookie-authenticated write that is not provably from our own pages: it
 * must come from the same origin and carry the CSRF header equal to the CSRF cookie (and to
 * the session's own token). Undefined when the write may go on.
 */
export function refuseCrossSiteWrite(request: FastifyRequest, csrfToken: string, publicUrl: string | undefined): Error | undefined {
  if (!fromSameOrigin(request, publicUrl))
    return errors.forbidden('A cookie-authenticated write must come from this application (Sec-Fetch-Site: same-origin or a matching Origin).', 'csrf_refused');
  const header = request.headers[CSRF_HEADER];
  const cookie = request.cookies?.[names(request).csrf];
  if (typeof header !== 'string' || cookie === undefined || !sameSecret(header, cookie) || !sameSecret(header, csrfToken)) {
    return errors.forbidden(
      `A cookie-authenticated write needs the ${CSRF_HEADER} header equal to the CSRF cookie (GET /api/v0/session returns the token).`,
      'csrf_refused',
    );
  }
  return undefined;
}

/** Signing in from another site's page (login CSRF) is refused; browsers without Sec-Fetch-Site pass. */
export function refuseCrossSiteSignIn(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') throw errors.forbidden('Signing in from another site is not allowed.', 'csrf_refused');
}
