import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { CreatedScimToken, CreateScimTokenBody, ScimToken, ScimTokenList, ScimTokenParams } from './schemas.js';
import type { ScimTokens } from './tokens.js';
import { SCIM_PREFIX } from './routes.js';

const tags = ['scim'];
const base = '/api/v0/organization/scim/tokens';
/** Provisioning adds and removes people: only owners hand that power to an identity provider. */
const owners = { access: ['owner'] as const };

/** The SCIM tokens of the organization (docs/scim.md): owners make, list and revoke them. */
export const scimTokenRoutes: FastifyPluginAsyncTypebox<{ scimTokens: ScimTokens }> = async (app, { scimTokens }) => {
  app.addSchema(ScimToken);

  app.get(
    base,
    {
      config: owners,
      schema: {
        operationId: 'scim.listTokens',
        tags,
        summary: "The organization's SCIM tokens, newest first, revoked ones included; never a secret (owner)",
        response: { 200: ScimTokenList, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ baseUrl: `${request.publicUrl}${SCIM_PREFIX}`, tokens: await scimTokens.list(principalOf(request)) }),
  );

  app.post(
    base,
    {
      config: owners,
      schema: {
        operationId: 'scim.createToken',
        tags,
        summary: 'Make a SCIM token for an identity provider; the secret is shown only in this answer (owner)',
        body: CreateScimTokenBody,
        response: { 201: CreatedScimToken, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.code(201).send(await scimTokens.create(principalOf(request), request.body.name)),
  );

  app.delete(
    `${base}/:tokenId`,
    {
      config: owners,
      schema: {
        operationId: 'scim.revokeToken',
        tags,
        summary: 'Revoke a SCIM token: the next SCIM request with it is refused (owner)',
        params: ScimTokenParams,
        response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await scimTokens.revoke(principalOf(request), request.params.tokenId);
      return reply.code(204).send(null);
    },
  );
};
