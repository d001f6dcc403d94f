import { isManagerRole, type Principal } from '../core/identity/roles.js';
import type { IdentityService } from '../core/identity/service.js';
import { textOf } from './mappings/native.js';
import type { Attrs } from './records.js';

/** The user a record names, or why it cannot be used. */
export type Owner = { userId: string } | { reject: string };

/** Text columns cannot hold NUL; ids and names are bounded like native events' (the rollups cut names further). */
export const clean = (s: string, max: number) => (s.length <= max && !s.includes('\0') ? s : s.replaceAll('\0', '').slice(0, max));

/**
 * Who each record belongs to. A member's records are their own. An owner's or manager's key
 * (an organization-wide collector) attributes each record by what it names, first match wins:
 * `user.email`, `enduser.id` (as an email; a value without an @ names nobody), then a user whose linked account id is
 * `user.account_id`, `user.account_uuid` or (Droid only) `user.id`. A record that names nobody
 * stays the caller's; one that names no user of the organization is rejected.
 */
export async function ownersOf<R extends { attrs: Attrs; resource: Attrs }>(
  identity: IdentityService,
  caller: Principal,
  records: readonly R[],
  nameOf: (r: R) => string,
): Promise<Owner[]> {
  const own: Owner = { userId: caller.id };
  if (!isManagerRole(caller.role)) return records.map(() => own);
  // Each record's email and account, and each of them once (an export mostly names a few).
  const emailsOf: (string | undefined)[] = [];
  const accountsOf: (string | undefined)[] = [];
  const emails = new Set<string>();
  const accounts = new Set<string>();
  for (const r of records) {
    const email = emailOf(r);
    const account = accountOf(r, nameOf(r));
    emailsOf.push(email);
    accountsOf.push(account);
    if (email) emails.add(email);
    if (account) accounts.add(account);
  }
  const [byEmail, byAccount] = await Promise.all([
    emails.size ? identity.usersByEmail(caller.orgId, [...emails]) : new Map<string, string>(),
    accounts.size ? identity.usersByAccount(caller.orgId, [...accounts]) : new Map<string, string>(),
  ]);
  return records.map((_, i) => {
    const email = emailsOf[i];
    const account = accountsOf[i];
    if (email === undefined && account === undefined) return own;
    const id = (email && byEmail.get(email.trim().toLowerCase())) || (account && byAccount.get(account));
    if (id) return { userId: id };
    return {
      reject: email
        ? `user ${clean(email, 100)} is not a user of this organization`
        : `account ${clean(account as string, 100)} is linked to no user of this organization (orgctl users link)`,
    };
  });
}

// Each attribute is read at a site of its own (textOf in mappings/native.ts).
type Named = { attrs: Attrs; resource: Attrs };
const emailOf = (r: Named) =>
  anEmail(textOf(r.attrs['user.email'])) ??
  anEmail(textOf(r.resource['user.email'])) ??
  anEmail(textOf(r.attrs['enduser.id'])) ??
  anEmail(textOf(r.resource['enduser.id']));

/** Only an email names a user: Droid sends `user.email="unknown"` when it has none, which names nobody. */
const anEmail = (value: string | undefined) => (value?.includes('@') ? value : undefined);

/** The client account a record names; Claude Code's user.id is an anonymous installation id, so only Droid's counts. */
function accountOf(r: Named, name: string): string | undefined {
  const account =
    textOf(r.attrs['user.account_id']) ??
    textOf(r.resource['user.account_id']) ??
    textOf(r.attrs['user.account_uuid']) ??
    textOf(r.resource['user.account_uuid']);
  if (account) return account;
  const droid = name.startsWith('droid.') || (textOf(r.resource['service.name']) ?? '').includes('droid');
  const id = droid ? (textOf(r.attrs['user.id']) ?? textOf(r.resource['user.id'])) : undefined;
  // Droid 0.225 names everyone `airgapped-user` when airgapped (FACTORY_AIRGAP_ENABLED): nobody.
  return id === DROID_NOBODY ? undefined : id;
}

const DROID_NOBODY = 'airgapped-user';
