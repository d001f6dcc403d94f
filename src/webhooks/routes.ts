import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { access } from '../core/identity/roles.js';
import { CreatedEndpoint, CreateEndpointBody, DeliveryList, DeliveryParams, Endpoint, EndpointList, EndpointParams, UpdateEndpointBody } from './schemas.js';
import type { WebhooksService } from './service.js';

const tags = ['webhooks'];
const base = '/api/v0/organization/webhooks';

/** Owners and managers manage the organization's webhook endpoints (docs/webhooks.md). */
export const webhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  app.addSchema(Endpoint);
  const config = { access: access.managers };
  const ref = Type.Ref(Endpoint);

  app.get(
    base,
    { config, schema: { operationId: 'webhooks.list', tags, summary: 'The webhook endpoints', response: { 200: EndpointList, ...errorResponses(401, 403) } } },
    async (request) => ({ endpoints: await webhooks.list(principalOf(request).orgId) }),
  );

  app.post(
    base,
    {
      config,
      schema: {
        operationId: 'webhooks.create',
        tags,
        summary: 'Register an endpoint (at most 20 per organization); its secret is in this answer only',
        body: CreateEndpointBody,
        response: { 201: CreatedEndpoint, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(principalOf(request), request.body)),
  );

  app.get(
    `${base}/:endpointId`,
    {
      config,
      schema: { operationId: 'webhooks.get', tags, summary: 'An endpoint', params: EndpointParams, response: { 200: ref, ...errorResponses(401, 403, 404) } },
    },
    async (request) => webhooks.get(principalOf(request).orgId, request.params.endpointId),
  );

  app.patch(
    `${base}/:endpointId`,
    {
      config,
      schema: {
        operationId: 'webhooks.update',
        tags,
        summary: 'Change an endpoint, or enable it again',
        params: EndpointParams,
        body: UpdateEndpointBody,
        response: { 200: ref, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => webhooks.update(principalOf(request).orgId, request.params.endpointId, request.body),
  );

  app.delete(
    `${base}/:endpointId`,
    {
      config,
      schema: {
        operationId: 'webhooks.delete',
        tags,
        summary: 'Remove an endpoint and its delivery log',
        params: EndpointParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(principalOf(request).orgId, request.params.endpointId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/:endpointId/deliveries`,
    {
      config,
      schema: {
        operationId: 'webhooks.deliveries',
        tags,
        summary: "The endpoint's delivery log, newest first",
        params: EndpointParams,
        response: { 200: DeliveryList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => webhooks.deliveries(principalOf(request).orgId, request.params.endpointId),
  );

  app.post(
    `${base}/:endpointId/deliveries/:deliveryId/resend`,
    {
      config,
      schema: {
        operationId: 'webhooks.resend',
        tags,
        summary: 'Send a delivery again (same event id and body)',
        params: DeliveryParams,
        response: { 202: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.resend(principalOf(request).orgId, request.params.endpointId, request.params.deliveryId);
      return reply.code(202).send(null);
    },
  );
};
