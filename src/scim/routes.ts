import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../core/http/errors.js';
import { bodyNulErrors } from '../core/http/nul-guard.js';
import { MAX_RESULTS, resourceTypes, schemas, serviceProviderConfig } from './discovery.js';
import { ScimError, sendScimError, SCIM_CONTENT_TYPE } from './errors.js';
import { scimFilter } from './filter.js';
import { groupDocOf, type ScimGroups } from './groups.js';
import { groupResource, listResponse, project, userResource, type Resource } from './resources.js';
import { ScimGetQuery, ScimIdParams, ScimListQuery, ScimPatchBody, ScimResourceBody } from './schemas.js';
import type { ScimTokens } from './tokens.js';
import { userDocOf, type ScimUsers } from './users.js';

export const SCIM_PREFIX = '/scim/v2';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization whose SCIM token the request carries (SCIM routes only). */
    scimOrgId: string | null;
  }
}

export interface ScimServices {
  scimUsers: ScimUsers;
  scimGroups: ScimGroups;
  scimTokens: ScimTokens;
}

// SCIM is its own protocol, described by RFC 7643/7644 and the discovery endpoints below, so its
// routes stay out of openapi.json; their bodies are still checked by schemas.
const hide = { hide: true } as const;
const DISCOVERY = new Set(['ServiceProviderConfig', 'ResourceTypes', 'Schemas']);

const orgOf = (request: FastifyRequest): string => {
  if (!request.scimOrgId) throw new ScimError(401, 'Missing or invalid SCIM token.');
  return request.scimOrgId;
};

/** Answers a resource with its ETag; a GET whose If-None-Match names it gets 304. */
function sendResource(request: FastifyRequest, reply: FastifyReply, resource: Resource, status = 200) {
  const etag = resource.meta.version as string;
  reply.header('etag', etag);
  if (status === 201) reply.header('location', resource.meta.location as string);
  if (request.method === 'GET' && request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.code(status).send(resource);
}

/** A write with If-Match goes ahead only on the version it names (RFC 7644 §3.14). */
function checkIfMatch(request: FastifyRequest, current: Resource): void {
  const wanted = request.headers['if-match'];
  if (wanted !== undefined && wanted !== '*' && !wanted.split(',').some((v) => v.trim() === current.meta.version))
    throw new ScimError(412, 'The resource changed since the version If-Match names.');
}

/** The page a list asks for: startIndex is 1-based, below 1 counts as 1; count below 0 as 0, above MAX_RESULTS as MAX_RESULTS. */
function pageOf(q: { startIndex?: number; count?: number }): { startIndex: number; count: number } {
  return { startIndex: Math.max(1, q.startIndex ?? 1), count: Math.min(MAX_RESULTS, Math.max(0, q.count ?? MAX_RESULTS)) };
}

/** That page of a list read whole (Groups under a filter: the organization's teams). */
function page<T>(all: T[], q: { startIndex?: number; count?: number }): { items: T[]; startIndex: number } {
  const { startIndex, count } = pageOf(q);
  return { items: all.slice(startIndex - 1, startIndex - 1 + count), startIndex };
}

/**
 * SCIM 2.0 at /scim/v2 (docs/scim.md): Users, Groups (teams) and the discovery endpoints. A
 * SCIM token of the organization authenticates every request but discovery's; API keys, JWTs
 * and sessions do not. Every failure here answers SCIM's error object, and only here.
 */
export const scimRoutes: FastifyPluginAsyncTypebox<ScimServices> = async (app, { scimUsers, scimGroups, scimTokens }) => {
  app.decorateRequest('scimOrgId', null);
  app.setErrorHandler((err, request, reply) => sendScimError(request, reply, err));
  app.setNotFoundHandler((request, reply) =>
    sendScimError(request, reply, new ScimError(404, `No SCIM endpoint ${request.method} ${request.url.split('?')[0]}.`)),
  );
  // Identity providers send application/scim+json; plain JSON is taken too.
  app.addContentTypeParser('application/scim+json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body.toString();
    if (text === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new ScimError(400, 'The body is not JSON.', 'invalidSyntax'));
    }
    // The same refusal of NUL characters as every JSON body of the service (core/http/nul-guard.ts).
    const nul = bodyNulErrors(text, parsed);
    done(nul.length > 0 ? errors.invalid(nul) : null, parsed);
  });
  app.addHook('onRequest', async (request) => {
    const resource = request.url.slice(SCIM_PREFIX.length + 1).split(/[/?]/)[0] ?? '';
    if (DISCOVERY.has(resource)) return;
    const token = await scimTokens.tokenOf(request.headers.authorization);
    if (!token) throw new ScimError(401, 'Missing or invalid SCIM token. Send "Authorization: Bearer <SCIM token>" (ocs_…).');
    request.scimOrgId = token.orgId;
    // Each token spends the API's budgets (core/http/rate-limits.ts) by its organization's plan.
    request.rateSubject = { id: token.id, orgId: token.orgId, label: 'SCIM token' };
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode !== 204 && reply.statusCode !== 304) reply.type(SCIM_CONTENT_TYPE);
    return payload;
  });

  const base = (request: FastifyRequest) => `${request.publicUrl}${SCIM_PREFIX}`;

  // --- Discovery -------------------------------------------------------------------------
  app.get('/ServiceProviderConfig', { schema: hide }, async (request) => serviceProviderConfig(base(request)));
  app.get('/ResourceTypes', { schema: hide }, async (request) => {
    const types = resourceTypes(base(request));
    return listResponse(types as never, types.length, 1);
  });
  app.get('/ResourceTypes/:id', { schema: { ...hide, params: ScimIdParams } }, async (request) => {
    const found = resourceTypes(base(request)).find((t) => t.id === request.params.id);
    if (!found) throw new ScimError(404, `Resource type ${request.params.id} not found.`);
    return found;
  });
  app.get('/Schemas', { schema: hide }, async (request) => {
    const all = schemas(base(request));
    return listResponse(all as never, all.length, 1);
  });
  app.get('/Schemas/:id', { schema: { ...hide, params: ScimIdParams } }, async (request) => {
    const found = schemas(base(request)).find((s) => s.id === request.params.id);
    if (!found) throw new ScimError(404, `Schema ${request.params.id} not found.`);
    return found;
  });

  // --- Users -----------------------------------------------------------------------------
  app.get('/Users', { schema: { ...hide, querystring: ScimListQuery } }, async (request) => {
    const q = request.query;
    const url = base(request);
    const text = q.filter;
    const matches = text === undefined ? undefined : scimFilter(text);
    const { startIndex, count } = pageOf(q);
    const { users, total } = await scimUsers.list(orgOf(request), {
      filter: text === undefined || matches === undefined ? undefined : { text, test: (u) => matches(userResource(u, url)) },
      startIndex,
      count,
    });
    return listResponse(
      users.map((u) => project(userResource(u, url), q)),
      total,
      startIndex,
    );
  });
  app.post('/Users', { schema: { ...hide, body: ScimResourceBody } }, async (request, reply) => {
    const user = await scimUsers.create(orgOf(request), userDocOf(request.body));
    return sendResource(request, reply, userResource(user, base(request)), 201);
  });
  app.get('/Users/:id', { schema: { ...hide, params: ScimIdParams, querystring: ScimGetQuery } }, async (request, reply) => {
    const user = await scimUsers.get(orgOf(request), request.params.id);
    return sendResource(request, reply, project(userResource(user, base(request)), request.query));
  });
  app.put('/Users/:id', { schema: { ...hide, params: ScimIdParams, body: ScimResourceBody } }, async (request, reply) => {
    const orgId = orgOf(request);
    checkIfMatch(request, userResource(await scimUsers.get(orgId, request.params.id), base(request)));
    const user = await scimUsers.replace(orgId, request.params.id, userDocOf(request.body));
    return sendResource(request, reply, userResource(user, base(request)));
  });
  app.patch('/Users/:id', { schema: { ...hide, params: ScimIdParams, body: ScimPatchBody } }, async (request, reply) => {
    const orgId = orgOf(request);
    checkIfMatch(request, userResource(await scimUsers.get(orgId, request.params.id), base(request)));
    const user = await scimUsers.patch(orgId, request.params.id, request.body.Operations);
    return sendResource(request, reply, userResource(user, base(request)));
  });
  app.delete('/Users/:id', { schema: { ...hide, params: ScimIdParams } }, async (request, reply) => {
    const orgId = orgOf(request);
    checkIfMatch(request, userResource(await scimUsers.get(orgId, request.params.id), base(request)));
    await scimUsers.delete(orgId, request.params.id);
    return reply.code(204).send();
  });

  // --- Groups ----------------------------------------------------------------------------
  app.get('/Groups', { schema: { ...hide, querystring: ScimListQuery } }, async (request) => {
    const q = request.query;
    if (q.filter === undefined) {
      const { startIndex, count } = pageOf(q);
      const { groups, total } = await scimGroups.page(orgOf(request), startIndex, count);
      return listResponse(
        groups.map((g) => project(groupResource(g, base(request)), q)),
        total,
        startIndex,
      );
    }
    // A filter is tested against each group (an organization's teams are hundreds, not thousands).
    const matches = scimFilter(q.filter);
    const all = (await scimGroups.list(orgOf(request))).map((g) => groupResource(g, base(request))).filter(matches);
    const { items, startIndex } = page(all, q);
    return listResponse(
      items.map((r) => project(r, q)),
      all.length,
      startIndex,
    );
  });
  app.post('/Groups', { schema: { ...hide, body: ScimResourceBody } }, async (request, reply) => {
    const group = await scimGroups.create(orgOf(request), groupDocOf(request.body));
    return sendResource(request, reply, groupResource(group, base(request)), 201);
  });
  app.get('/Groups/:id', { schema: { ...hide, params: ScimIdParams, querystring: ScimGetQuery } }, async (request, reply) => {
    const group = await scimGroups.get(orgOf(request), request.params.id);
    return sendResource(request, reply, project(groupResource(group, base(request)), request.query));
  });
  app.put('/Groups/:id', { schema: { ...hide, params: ScimIdParams, body: ScimResourceBody } }, async (request, reply) => {
    const orgId = orgOf(request);
    checkIfMatch(request, groupResource(await scimGroups.get(orgId, request.params.id), base(request)));
    const group = await scimGroups.replace(orgId, request.params.id, groupDocOf(request.body));
    return sendResource(request, reply, groupResource(group, base(request)));
  });
  app.patch('/Groups/:id', { schema: { ...hide, params: ScimIdParams, body: ScimPatchBody } }, async (request, reply) => {
    const orgId = orgOf(request);
    checkIfMatch(request, groupResource(await scimGroups.get(orgId, request.params.id), base(request)));
    const group = await scimGroups.patch(orgId, request.params.id, request.body.Operations);
    return sendResource(request, reply, groupResource(group, base(request)));
  });
  app.delete('/Groups/:id', { schema: { ...hide, params: ScimIdParams } }, async (request, reply) => {
    const orgId = orgOf(request);
    checkIfMatch(request, groupResource(await scimGroups.get(orgId, request.params.id), base(request)));
    await scimGroups.delete(orgId, request.params.id);
    return reply.code(204).send();
  });
};
