import type { paths } from './openapi-types.js';

type Scope = NonNullable<NonNullable<paths['/api/v0/api-keys']['post']['requestBody']>['content']['application/json']['scopes']>[number];

/**
 * Exactly what the hooks and exporters of a managed install call: telemetry and OTLP exports,
 * the guard's allowance reads, and the SessionStart record of a session's repository. Sorted.
 */
export const MANAGED_SCOPES: readonly Scope[] = ['allowance:read', 'sessions:attribute', 'telemetry:write'];

/** Whether a key's scopes are exactly the managed set (a `full` key is not: it may do far more). */
export function isManagedScopeSet(scopes: readonly string[] | undefined): boolean {
  const set = [...new Set(scopes ?? [])].sort();
  return set.length === MANAGED_SCOPES.length && set.every((s, i) => s === MANAGED_SCOPES[i]);
}
