import { Type, type Static } from '@sinclair/typebox';
import { UuidParam } from '../core/http/params.js';

export const MAX_CONTENT = 512 * 1024;

const Action = Type.Union([Type.Literal('create'), Type.Literal('edit'), Type.Literal('delete')]);

export const CiEditBody = Type.Object(
  {
    repoUrl: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'The repository: https://HOST/OWNER/REPO, ssh://..., USER@HOST:PATH, or file:// where allowed',
    }),
    action: Action,
    workflowPath: Type.String({ minLength: 1, maxLength: 255, description: 'A file directly in .github/workflows/, ending in .yml or .yaml' }),
    content: Type.Optional(
      Type.String({ maxLength: MAX_CONTENT, description: 'The whole workflow file (YAML with on and jobs); required for create and edit, absent for delete' }),
    ),
    baseBranch: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "Branch the pull request targets; default: the repository's default branch" }),
    ),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Pull request title and first line of the commit message' })),
    description: Type.Optional(Type.String({ maxLength: 65_536, description: 'Pull request body' })),
  },
  { additionalProperties: false },
);
export type CiEditBody = Static<typeof CiEditBody>;

const PullRequestSummary = Type.Object({
  url: Type.String({ description: 'The pull request on GitHub, or its record on this service for plain Git remotes' }),
  number: Type.Integer({ minimum: 1 }),
  branch: Type.String(),
  baseBranch: Type.String(),
  title: Type.String(),
});

export const CiEditResult = Type.Object({
  pullRequest: PullRequestSummary,
  commitSha: Type.String(),
  action: Action,
  workflowPath: Type.String(),
});
export type CiEditResult = Static<typeof CiEditResult>;

export const PullRequest = Type.Object({
  id: Type.String({ format: 'uuid' }),
  host: Type.Union([Type.Literal('git'), Type.Literal('github')]),
  repoUrl: Type.String({ description: 'The repository URL, without credentials' }),
  repoId: Type.String(),
  number: Type.Integer({ minimum: 1 }),
  url: Type.String(),
  action: Action,
  workflowPath: Type.String(),
  branch: Type.String(),
  baseBranch: Type.String(),
  commitSha: Type.String(),
  title: Type.String(),
  description: Type.String(),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.Integer({ description: 'Unix time in milliseconds' }),
});
export type PullRequest = Static<typeof PullRequest>;

export const PullRequestList = Type.Object({ pullRequests: Type.Array(PullRequest) });

export const PullRequestQuery = Type.Object({
  repoUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Only pull requests of this repository' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: 20, description: 'Page size; values above 100 are served as 100' })),
  startAfter: Type.Optional(Type.String({ format: 'uuid', description: 'The id of the last pull request of the previous page' })),
});
export type PullRequestQuery = Static<typeof PullRequestQuery>;

export const PullRequestParams = Type.Object({ id: UuidParam('Pull request', 'pull_request_not_found') });
