import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { toErrorItems } from '../core/validation/ajv.js';
import { access } from '../core/identity/roles.js';
import { ListQuery, ReadinessCriteria, ReadinessSummary, Report, ReportList, ReportUpload, REPORT_MAX_BYTES, SummaryQuery } from './schemas.js';
import type { ReadinessService } from './service.js';

const tags = ['readiness reports'];
const PATH = '/api/organization/maturity-level-reports';
/** The same resource under the name the agent client also uses. */
const ALIAS = '/api/organization/agent-readiness-reports';

/** Served on the application address (APP_PORT when set, else the API's own listener). */
export const readinessRoutes: FastifyPluginAsyncTypebox<{ readiness: ReadinessService }> = async (app, { readiness }) => {
  app.get(
    '/api/organization/agent-readiness-summary',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'readiness.summary',
        tags,
        summary: "The organization's readiness: its level, each repository's latest level, pass rate, pillars and history, and their trend over a period",
        querystring: SummaryQuery,
        response: { 200: ReadinessSummary, ...errorResponses(400, 401) },
      },
    },
    async (request) => readiness.summary(principalOf(request).orgId, request.query.period),
  );

  app.get(
    '/api/organization/readiness-criteria',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'readiness.criteria',
        tags,
        summary: 'The readiness model: every criterion with its pillar, level and scope, and the share a level must pass',
        response: { 200: ReadinessCriteria, ...errorResponses(401) },
      },
    },
    async () => readiness.criteria(),
  );

  for (const [path, suffix, note] of [
    [PATH, '', ''],
    [ALIAS, 'Alias', ' (alias path)'],
  ] as const) {
    app.get(
      path,
      {
        config: { access: access.anyone },
        schema: {
          operationId: `readiness.list${suffix}`,
          tags,
          summary: `List readiness reports, newest first${note}`,
          querystring: ListQuery,
          response: { 200: ReportList, ...errorResponses(400, 401) },
        },
      },
      async (request) => ({ reports: await readiness.list(principalOf(request).orgId, request.query) }),
    );

    app.post(
      path,
      {
        config: { access: access.contributors },
        // The schema's findings go to the handler, which adds the checks a schema cannot make,
        // so one answer lists every problem of a report.
        attachValidation: true,
        bodyLimit: REPORT_MAX_BYTES,
        schema: {
          operationId: `readiness.upload${suffix}`,
          tags,
          summary: `Upload a readiness report${note}`,
          body: ReportUpload,
          response: { 201: Report, ...errorResponses(400, 401, 403, 413) },
        },
      },
      async (request, reply) => {
        const schemaProblems = request.validationError ? toErrorItems(request.validationError.validation as never) : [];
        return reply.code(201).send(await readiness.upload(principalOf(request), request.body, schemaProblems));
      },
    );
  }
};
