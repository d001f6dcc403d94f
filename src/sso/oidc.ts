import * as oidc from 'openid-client';
import { errors } from '../core/http/errors.js';
import { guardedFetch } from '../core/net/guarded-fetch.js';
import { GuardRefusal, type Resolver } from '../core/net/network-guard.js';

export interface IssuerPolicy {
  /** SSO_ALLOW_PRIVATE_ISSUER: the identity provider may be on an internal address, and on plain http. */
  allowPrivate: boolean;
  resolve?: Resolver;
}

/** Why the identity provider could not be used; the message is for the owner and the audit log. */
export class IssuerUnreachable extends Error {
  override readonly name = 'IssuerUnreachable';
}

/**
 * The fetch every request to an identity provider goes through (discovery, its keys, the token
 * endpoint): the guarded fetch, which connects only to the addresses the network guard checked
 * in its one lookup (internal ones refused unless the operator allows them), so an owner cannot
 * make the service a proxy into its own network, not even with a name that answers differently
 * the second time. Redirects are not followed, since one could lead past the check.
 */
function issuerFetch(policy: IssuerPolicy): oidc.CustomFetch {
  const fetchGuarded = guardedFetch({ allowPrivateNetwork: policy.allowPrivate, resolve: policy.resolve });
  return async (url, options) => {
    const target = new URL(url);
    if (!policy.allowPrivate && target.protocol !== 'https:')
      throw new IssuerUnreachable(`${target.origin} is not https (plain http needs SSO_ALLOW_PRIVATE_ISSUER)`);
    try {
      return await fetchGuarded(url, options);
    } catch (e) {
      if (!(e instanceof GuardRefusal)) throw e;
      if (e.internal.length === 0) throw new IssuerUnreachable(`${e.host} does not resolve`, { cause: e });
      throw new IssuerUnreachable(`${e.host} is an internal address (${e.internal[0]}); allowed only with SSO_ALLOW_PRIVATE_ISSUER`, { cause: e });
    }
  };
}

/** The provider's discovered configuration for a client of this service. */
export async function discover(issuer: string, clientId: string, clientSecret: string, policy: IssuerPolicy): Promise<oidc.Configuration> {
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !policy.allowPrivate) throw new IssuerUnreachable(`${url.origin} is not https (plain http needs SSO_ALLOW_PRIVATE_ISSUER)`);
  try {
    return await oidc.discovery(url, clientId, clientSecret, oidc.ClientSecretBasic(clientSecret), {
      [oidc.customFetch]: issuerFetch(policy),
      // Token responses come over TLS, so openid-client would skip the ID token's signature; it is checked anyway.
      execute: [oidc.enableNonRepudiationChecks, ...(policy.allowPrivate && url.protocol === 'http:' ? [oidc.allowInsecureRequests] : [])],
      timeout: 10,
    });
  } catch (e) {
    if (e instanceof IssuerUnreachable) throw e;
    throw new IssuerUnreachable(`discovery of ${url.origin} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** A 502 for the owner who configures an issuer the service cannot use. */
export const issuerError = (e: IssuerUnreachable) => errors.badGateway(`The identity provider cannot be used: ${e.message}.`, { field: 'issuer' }, e);
