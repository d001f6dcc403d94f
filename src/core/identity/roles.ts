import type { Scope } from './scopes.js';

export const ROLES = ['owner', 'manager', 'member', 'guest'] as const;
export type Role = (typeof ROLES)[number];
export type PrincipalKind = 'user' | 'service_account';

/** Who may call a route: the role sets of the roles table, named once and declared per route. */
export const access = {
  anyone: ROLES,
  managers: ['owner', 'manager'],
  contributors: ['owner', 'manager', 'member'],
} as const satisfies Record<string, readonly Role[]>;

const rank: Record<Role, number> = { owner: 3, manager: 2, member: 1, guest: 0 };

/** Whether `actor` may act on behalf of `target` (issue keys for it, change its data): never upwards. */
export const outranksOrEquals = (actor: Role, target: Role): boolean => rank[actor] >= rank[target];

export const isManagerRole = (role: Role): boolean => role === 'owner' || role === 'manager';

/** The authenticated caller of a request. */
export interface Principal {
  id: string;
  kind: PrincipalKind;
  email: string | null;
  name: string;
  role: Role;
  orgId: string;
  orgName: string;
  /** What the credential may do within the role: `full` for sessions, JWTs and unscoped keys. */
  scopes: readonly Scope[];
  credential: { type: 'api_key'; keyId: string } | { type: 'jwt' } | { type: 'session'; sessionId: string };
}
