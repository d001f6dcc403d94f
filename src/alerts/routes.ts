import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { access } from '../core/identity/roles.js';
import { Alert, AlertList, AlertSettings, AlertsQuery } from './schemas.js';
import type { AlertsService } from './service.js';

const tags = ['alerts'];

/** Everyone reads their own alerts; owners and managers read all of them and set the thresholds (docs/alerts.md). */
export const alertsRoutes: FastifyPluginAsyncTypebox<{ alerts: AlertsService }> = async (app, { alerts }) => {
  app.addSchema(Alert);

  app.get(
    '/api/v0/alerts',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'alerts.list',
        tags,
        summary: "Usage alerts, newest first: every alert for owners and managers, one's own for everyone else",
        querystring: AlertsQuery,
        response: { 200: AlertList, ...errorResponses(400, 401) },
      },
    },
    async (request) => alerts.list(principalOf(request), request.query),
  );

  app.get(
    '/api/v0/organization/alerts/settings',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'alerts.getSettings',
        tags,
        summary: 'The thresholds per kind of scope and the organization budget (owner or manager)',
        response: { 200: AlertSettings, ...errorResponses(401, 403) },
      },
    },
    async (request) => alerts.settings(principalOf(request).orgId),
  );

  app.put(
    '/api/v0/organization/alerts/settings',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'alerts.setSettings',
        tags,
        summary: 'Set the thresholds per kind of scope and the organization budget (owner or manager)',
        body: AlertSettings,
        response: { 200: AlertSettings, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => alerts.setSettings(principalOf(request).orgId, request.body),
  );
};
