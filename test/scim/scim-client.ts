import type { Response, TestApp, Org } from '../helpers/test-app.js';

const SCIM = '/scim/v2';
export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type ScimResource = Record<string, unknown> & { id: string; meta: { version: string; location: string } };
export interface ScimList {
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources: ScimResource[];
}

/** An owner's new SCIM token, made over the API as the web card and the CLI make it. */
export async function scimToken(t: TestApp, org: Org, name = 'Okta'): Promise<string> {
  const res = await t.request<{ token: string }>('POST', '/api/v0/organization/scim/tokens', { key: org.ownerKey, body: { name } });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${res.raw}`);
  return res.body.token;
}

/** A SCIM request as identity providers send it: the token as bearer, bodies as application/scim+json. */
export function scim(t: TestApp, token: string) {
  return <T = ScimResource>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response<T>> =>
    t.request<T>(method, `${SCIM}${path}`, {
      key: token,
      body,
      headers: body === undefined ? headers : { 'content-type': 'application/scim+json; charset=utf-8', ...headers },
    });
}

/** Asserts SCIM's error object (RFC 7644 §3.12): status as a string, scimType when given. */
export function expectScimError(res: Response, status: number, scimType?: string): { detail: string } {
  const body = res.body as Record<string, unknown>;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.raw}`);
  if (!String(res.headers['content-type']).startsWith('application/scim+json')) throw new Error(`content type ${res.headers['content-type']}`);
  if (JSON.stringify(body.schemas) !== JSON.stringify([ERROR]) || body.status !== String(status) || typeof body.detail !== 'string')
    throw new Error(`not a SCIM error: ${res.raw}`);
  if (scimType !== undefined && body.scimType !== scimType) throw new Error(`scimType ${String(body.scimType)}, expected ${scimType}: ${res.raw}`);
  return body as { detail: string };
}
