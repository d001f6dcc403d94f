import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/access.js';
import { errorResponses } from '../http/error-schema.js';
import { errors } from '../http/errors.js';
import { access, type Principal } from './roles.js';
import {
  AccountIdParams,
  AccountLink,
  AccountLinkBody,
  AccountLinkList,
  ApiKeyList,
  CreateApiKeyBody,
  CreatedApiKey,
  CreateServiceAccountBody,
  KeyIdParams,
  ListApiKeysQuery,
  Me,
  ServiceAccount,
  ServiceAccountIdParams,
  ServiceAccountList,
  UpdateMeBody,
  type ApiKeyDto,
} from './schemas.js';
import type { IdentityService } from './service.js';
import type { ApiKeyRow } from './store.js';

const ms = (d: Date | null) => (d === null ? null : d.getTime());

const meOf = (p: Principal) => ({
  principalId: p.id,
  kind: p.kind,
  email: p.email,
  name: p.name,
  role: p.role,
  organization: { id: p.orgId, name: p.orgName },
  scopes: [...p.scopes],
  credential: p.credential.type === 'api_key' ? { type: 'api_key' as const, keyId: p.credential.keyId } : { type: p.credential.type },
});
const toDto = (k: ApiKeyRow): ApiKeyDto => ({
  id: k.id,
  name: k.name,
  prefix: k.display_prefix,
  principalId: k.principal_id,
  principalEmail: k.principal_email,
  principalName: k.principal_name,
  principalKind: k.principal_kind,
  scopes: k.scopes,
  createdAt: k.created_at.getTime(),
  expiresAt: ms(k.expires_at),
  revokedAt: ms(k.revoked_at),
  lastUsedAt: ms(k.last_used_at),
});

export const identityRoutes: FastifyPluginAsyncTypebox<{ identity: IdentityService }> = async (app, { identity }) => {
  app.get(
    '/api/v0/me',
    {
      // Every credential may ask who it is and what it may do: connect --managed checks a key so.
      config: { access: access.anyone, scope: 'any' },
      schema: { operationId: 'identity.me', tags: ['identity'], summary: 'Who the credential is', response: { 200: Me, ...errorResponses(401) } },
    },
    async (request) => meOf(principalOf(request)),
  );
  app.patch(
    '/api/v0/me',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'identity.updateMe',
        tags: ['identity'],
        summary: 'Change your own name or email (users; the email is the sign-in name); sessions, keys and tokens keep working',
        body: UpdateMeBody,
        response: { 200: Me, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const changed = await identity.updateOwnProfile(p, request.body);
      return meOf({ ...p, ...changed });
    },
  );

  app.post(
    '/api/v0/api-keys',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'apiKeys.create',
        tags: ['identity'],
        summary: 'Create an API key (for yourself, or as owner/manager for another principal)',
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const actor = principalOf(request);
      const { name, expiresAt, principalId, email, scopes } = request.body;
      if (principalId !== undefined && email !== undefined) throw errors.badRequest('Name the principal by principalId or by email, not both.');
      const target = principalId !== undefined ? { id: principalId } : email !== undefined ? { email } : undefined;
      const created = await identity.createApiKey(actor, {
        target,
        name,
        expiresAt: expiresAt === undefined ? null : new Date(expiresAt),
        ...(scopes ? { scopes } : {}),
      });
      return reply.code(201).send({ ...toDto(created.key), key: created.secret });
    },
  );

  app.get(
    '/api/v0/api-keys',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'apiKeys.list',
        tags: ['identity'],
        summary: "List API keys' metadata (owners and managers: the organization's; others: their own)",
        querystring: ListApiKeysQuery,
        response: { 200: ApiKeyList, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ apiKeys: (await identity.listApiKeys(principalOf(request), request.query.principalId)).map(toDto) }),
  );

  app.delete(
    '/api/v0/api-keys/:id',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'apiKeys.revoke',
        tags: ['identity'],
        summary: 'Revoke an API key',
        params: KeyIdParams,
        response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await identity.revokeApiKey(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  // Service accounts: principals for automation; their keys are made with POST /api/v0/api-keys {principalId}.
  app.get(
    '/api/v0/organization/service-accounts',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'serviceAccounts.list',
        tags: ['identity'],
        summary: 'The service accounts of the organization, with their working keys (owner or manager)',
        response: { 200: ServiceAccountList, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ serviceAccounts: await identity.serviceAccounts(principalOf(request)) }),
  );
  app.post(
    '/api/v0/organization/service-accounts',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'serviceAccounts.create',
        tags: ['identity'],
        summary: 'Create a service account (owner or manager; never of a role above yours)',
        body: CreateServiceAccountBody,
        response: { 201: ServiceAccount, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.code(201).send(await identity.createServiceAccount(principalOf(request), request.body)),
  );
  app.delete(
    '/api/v0/organization/service-accounts/:id',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'serviceAccounts.remove',
        tags: ['identity'],
        summary: 'Remove a service account; its keys stop working at once and the computers it owns are deleted (never above your role)',
        params: ServiceAccountIdParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await identity.removeServiceAccount(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  // Account links: how an organization-wide OTLP key attributes records that name an account, not an email.
  app.put(
    '/api/v0/organization/account-links',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'accountLinks.set',
        tags: ['identity'],
        summary: "Link an agent client's account id to a user (owner or manager); an id linked before moves to this user",
        body: AccountLinkBody,
        response: { 200: AccountLink, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => identity.linkAccount(principalOf(request), request.body.email, request.body.accountId),
  );
  app.get(
    '/api/v0/organization/account-links',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'accountLinks.list',
        tags: ['identity'],
        summary: 'The account links of the organization, by user email',
        response: { 200: AccountLinkList, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ links: await identity.accountLinks(principalOf(request)) }),
  );
  app.delete(
    '/api/v0/organization/account-links/:accountId',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'accountLinks.delete',
        tags: ['identity'],
        summary: 'Remove an account link',
        params: AccountIdParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await identity.unlinkAccount(principalOf(request), request.params.accountId);
      return reply.code(204).send(null);
    },
  );
};
