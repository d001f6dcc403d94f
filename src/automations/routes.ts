import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { access } from '../core/identity/roles.js';
import { CiEditBody, CiEditResult, PullRequest, PullRequestList, PullRequestParams, PullRequestQuery } from './schemas.js';
import type { AutomationsService } from './service.js';

const tags = ['CI automation'];

export const automationsRoutes: FastifyPluginAsyncTypebox<{ automations: AutomationsService }> = async (app, { automations }) => {
  app.post(
    '/api/v0/automations/ci/edit',
    {
      config: { access: access.contributors },
      schema: {
        operationId: 'automations.ciEdit',
        tags,
        summary: 'Open a pull request that creates, edits or deletes a CI workflow',
        description:
          'One new branch `ci/<action>-<workflow>-<id>` with one commit, and a pull request against baseBranch. ' +
          '400 invalid body or YAML (metadata.line, metadata.column), 404 repository, base branch or (edit, delete) file missing, ' +
          '409 (create) file exists or (edit) content unchanged, 502 the Git host failed.',
        body: CiEditBody,
        response: { 200: CiEditResult, ...errorResponses(400, 401, 403, 404, 409, 502) },
      },
    },
    async (request) => automations.editWorkflow(principalOf(request), request.body, request.storedLinkUrl),
  );

  app.get(
    '/api/v0/automations/ci/pull-requests',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'automations.listPullRequests',
        tags,
        summary: 'Pull requests opened by CI automation, newest first',
        querystring: PullRequestQuery,
        response: { 200: PullRequestList, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ pullRequests: await automations.listPullRequests(principalOf(request).orgId, request.query) }),
  );

  app.get(
    '/api/v0/automations/ci/pull-requests/:id',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'automations.getPullRequest',
        tags,
        summary: 'One pull request opened by CI automation',
        params: PullRequestParams,
        response: { 200: PullRequest, ...errorResponses(401, 404) },
      },
    },
    async (request) => automations.getPullRequest(principalOf(request).orgId, request.params.id),
  );
};
