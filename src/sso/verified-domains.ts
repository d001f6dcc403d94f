/**
 * SSO_VERIFIED_DOMAINS, `domain=ORG_ID,…` (its shape is checked by the configuration's schema):
 * each domain, lower case, and the organization the operator says it belongs to.
 */
export function parseVerifiedDomains(text: string): Map<string, string> {
  const list = new Map<string, string>();
  for (const entry of text.split(',')) {
    const [domain, orgId] = entry.trim().split('=');
    if (domain && orgId) list.set(domain.toLowerCase(), orgId.toLowerCase());
  }
  return list;
}
