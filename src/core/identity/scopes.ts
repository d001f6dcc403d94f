/**
 * What a credential may do beyond its holder's role. `full` is the role itself (every key made
 * without scopes, every session and JWT); the others narrow a key to the operations that declare
 * them, so a key copied from a laptop's managed settings reaches nothing else.
 */
export const SCOPES = ['full', 'telemetry:write', 'allowance:read', 'sessions:attribute'] as const;
export type Scope = (typeof SCOPES)[number];
export type NarrowScope = Exclude<Scope, 'full'>;

/** What a route admits besides `full`: one narrow scope, or `any` for what every credential may ask (who it is). */
export type RouteScope = NarrowScope | 'any';

export const FULL: readonly Scope[] = ['full'];

/** The one rule: a credential with `full` passes; a narrow one only where the route declares one of its scopes. */
export const scopeAdmits = (granted: readonly Scope[], declared: RouteScope | undefined): boolean =>
  granted.includes('full') || declared === 'any' || (declared !== undefined && granted.includes(declared));

export const isFull = (granted: readonly Scope[]): boolean => granted.includes('full');

/** Why a set of scopes cannot be a key's, or undefined when it can: `full` is the whole role, so it stands alone. */
export function scopesProblem(scopes: readonly string[]): string | undefined {
  if (scopes.length === 0) return 'a key needs at least one scope (full for the whole role)';
  const unknown = scopes.find((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) return `unknown scope ${unknown}; the scopes are ${SCOPES.join(', ')}`;
  if (scopes.includes('full') && new Set(scopes).size > 1) return 'full is the whole role: give it alone, or only narrow scopes';
  return undefined;
}

/** `telemetry:write,allowance:read`, as the CLI's --scopes takes them. */
export function parseScopes(text: string): { scopes: Scope[] } | { problem: string } {
  const scopes = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const problem = scopesProblem(scopes);
  return problem === undefined ? { scopes: normalizeScopes(scopes as Scope[]) } : { problem };
}

/** The same set, sorted and without repeats: how scopes are stored and compared. */
export const normalizeScopes = (scopes: readonly Scope[]): Scope[] => [...new Set(scopes)].sort();
