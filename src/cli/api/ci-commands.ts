import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { UsageError } from '../../core/cli/args.js';
import { CliError } from '../../core/cli/cli-error.js';
import { unwrap } from '../../client/api-client.js';
import { flag, integerFlag, requiredFlag, type ApiCommand } from './command.js';
import { fields, printList, printObject, when } from './print.js';

export const ciEdit: ApiCommand = {
  name: 'ci edit',
  summary: 'Open a pull request that creates, edits or deletes a GitHub Actions workflow file (owner, manager or member; not a guest).',
  flags: {
    repo: { type: 'string', value: 'URL', description: 'The repository (https://HOST/OWNER/REPO, ssh://, USER@HOST:PATH)' },
    action: { type: 'string', value: 'ACTION', choices: ['create', 'edit', 'delete'], description: 'What to do with the workflow file' },
    workflow: { type: 'string', value: 'PATH', description: 'The file, in .github/workflows/, ending in .yml or .yaml' },
    file: { type: 'string', value: 'FILE', description: 'The new content (create and edit); - reads standard input' },
    base: { type: 'string', value: 'BRANCH', description: "The branch the pull request targets (default: the repository's default branch)" },
    title: { type: 'string', value: 'TEXT', description: 'Pull request title' },
    description: { type: 'string', value: 'TEXT', description: 'Pull request body' },
  },
  outputs: ['table', 'json'],
  async run(ctx) {
    const action = requiredFlag(ctx, 'action') as 'create' | 'edit' | 'delete';
    const file = flag(ctx, 'file');
    if (action !== 'delete' && file === undefined) throw new UsageError(`--file is required to ${action} a workflow.`);
    if (action === 'delete' && file !== undefined) throw new UsageError('--file is not taken when deleting a workflow.');
    let content: string | undefined;
    if (file !== undefined) {
      try {
        content = file === '-' ? await text(process.stdin) : await readFile(file, 'utf8');
      } catch (e) {
        throw new CliError(`Cannot read ${file}: ${(e as Error).message}`);
      }
    }
    const opt = (n: string) => flag(ctx, n);
    const body = await unwrap(
      ctx.api().POST('/api/v0/automations/ci/edit', {
        body: {
          repoUrl: requiredFlag(ctx, 'repo'),
          action,
          workflowPath: requiredFlag(ctx, 'workflow'),
          ...(content !== undefined ? { content } : {}),
          ...(opt('base') ? { baseBranch: opt('base') } : {}),
          ...(opt('title') ? { title: opt('title') } : {}),
          ...(opt('description') !== undefined ? { description: opt('description') } : {}),
        },
      }),
    );
    printObject(ctx, body, [
      `Opened pull request #${body.pullRequest.number}: ${body.pullRequest.title}`,
      ...fields([
        ['url', body.pullRequest.url],
        ['branch', `${body.pullRequest.branch} -> ${body.pullRequest.baseBranch}`],
        ['commit', body.commitSha],
        ['change', `${body.action} ${body.workflowPath}`],
      ]),
    ]);
    return 0;
  },
};

export const ciPrs: ApiCommand = {
  name: 'ci prs',
  summary: 'The pull requests opened by `ci edit`, newest first.',
  flags: {
    repo: { type: 'string', value: 'URL', description: 'Only pull requests of this repository' },
    limit: { type: 'string', value: 'N', description: 'Per page, 1 to 100 (default 20)' },
    'start-after': { type: 'string', value: 'ID', description: 'The last id of the previous page' },
    all: { type: 'boolean', description: 'Every page to the end' },
  },
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const repoUrl = flag(ctx, 'repo');
    const limit = integerFlag(ctx, 'limit') ?? 20;
    let startAfter = flag(ctx, 'start-after');
    const pullRequests = [];
    for (;;) {
      const page = await unwrap(
        ctx.api().GET('/api/v0/automations/ci/pull-requests', {
          params: { query: { limit, ...(repoUrl ? { repoUrl } : {}), ...(startAfter ? { startAfter } : {}) } },
        }),
      );
      pullRequests.push(...page.pullRequests);
      const last = page.pullRequests.at(-1);
      if (!ctx.values.all || !last) break;
      startAfter = last.id;
    }
    const rows =
      ctx.output === 'table'
        ? pullRequests.map((p) => ({
            created: when(p.createdAt),
            repository: p.repoId,
            number: p.number,
            action: p.action,
            workflow: p.workflowPath,
            title: p.title,
            url: p.url,
          }))
        : (pullRequests as Record<string, unknown>[]);
    printList(ctx, { pullRequests }, rows);
    return 0;
  },
};

export const ciCommands = [ciEdit, ciPrs];
