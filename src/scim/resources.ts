import { createHash } from 'node:crypto';
import type { ScimUserRow } from './store.js';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export type Resource = Record<string, unknown> & { id: string; meta: Record<string, unknown> };

/** A weak ETag of what the resource says: it changes whenever the answer would, whoever changed it. */
function withVersion(resource: Resource): Resource {
  const version = `W/"${createHash('sha256').update(JSON.stringify(resource)).digest('base64url').slice(0, 22)}"`;
  return { ...resource, meta: { ...resource.meta, version } };
}

export function userResource(u: ScimUserRow, base: string): Resource {
  const formatted = [u.given_name, u.family_name].filter(Boolean).join(' ');
  return withVersion({
    schemas: [USER_SCHEMA],
    id: u.id,
    ...(u.external_id !== null ? { externalId: u.external_id } : {}),
    userName: u.user_name,
    name: {
      ...(formatted ? { formatted } : {}),
      ...(u.given_name !== null ? { givenName: u.given_name } : {}),
      ...(u.family_name !== null ? { familyName: u.family_name } : {}),
    },
    displayName: u.display_name ?? u.name ?? (formatted || u.user_name),
    emails: [{ value: u.user_name, type: 'work', primary: true }],
    active: u.active,
    meta: { resourceType: 'User', created: u.created_at.toISOString(), lastModified: u.updated_at.toISOString(), location: `${base}/Users/${u.id}` },
  });
}

export interface GroupRow {
  id: string;
  name: string;
  externalId: string | null;
  members: { id: string; email: string }[];
  createdAt: number;
  updatedAt: number;
}

export function groupResource(g: GroupRow, base: string): Resource {
  return withVersion({
    schemas: [GROUP_SCHEMA],
    id: g.id,
    ...(g.externalId !== null ? { externalId: g.externalId } : {}),
    displayName: g.name,
    members: g.members.map((m) => ({ value: m.id, display: m.email, $ref: `${base}/Users/${m.id}` })),
    meta: {
      resourceType: 'Group',
      created: new Date(g.createdAt).toISOString(),
      lastModified: new Date(g.updatedAt).toISOString(),
      location: `${base}/Groups/${g.id}`,
    },
  });
}

const ALWAYS = new Set(['id', 'schemas', 'meta']);

/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5) on top-level attributes: Entra ID
 * asks for groups with `excludedAttributes=members`, which spares the member list.
 */
export function project(resource: Resource, q: { attributes?: string; excludedAttributes?: string }): Resource {
  const names = (list: string) => new Set(list.split(',').map((a) => a.trim().split('.')[0]!.replace(/^.*:/, '').toLowerCase()));
  if (q.attributes) {
    const keep = names(q.attributes);
    return Object.fromEntries(Object.entries(resource).filter(([k]) => ALWAYS.has(k) || keep.has(k.toLowerCase()))) as Resource;
  }
  if (q.excludedAttributes) {
    const drop = names(q.excludedAttributes);
    return Object.fromEntries(Object.entries(resource).filter(([k]) => ALWAYS.has(k) || !drop.has(k.toLowerCase()))) as Resource;
  }
  return resource;
}

export function listResponse(resources: Resource[], total: number, startIndex: number) {
  return { schemas: [LIST_SCHEMA], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources };
}
