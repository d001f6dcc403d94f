import type { Principal } from './roles.js';
import { FULL, type Scope } from './scopes.js';
import type { PrincipalRow } from './store.js';

/**
 * The one way a Principal is made: from its stored row (API keys and JWTs in the authenticator,
 * sessions in accounts) and the credential it came with, so every caller is the same shape.
 */
export function toPrincipal(row: PrincipalRow, credential: Principal['credential'], scopes: readonly Scope[] = FULL): Principal {
  return {
    id: row.id,
    kind: row.kind,
    email: row.email,
    name: row.name,
    role: row.role,
    orgId: row.org_id,
    orgName: row.org_name,
    scopes,
    credential,
  };
}
