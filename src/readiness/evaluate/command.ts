import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { flag } from '../../core/cli/args.js';
import { CliError } from '../../core/cli/cli-error.js';
import type { ApiCommand } from '../../cli/api/command.js';
import { unwrap } from '../../client/api-client.js';
import { canonicalRepoId, notARepoUrl } from '../../core/net/repo-id.js';
import { humanSummary } from './human.js';
import { markdownSummary } from './markdown.js';
import { stableJson, uploadBody } from './report.js';

export const readinessEvaluate: ApiCommand = {
  name: 'readiness evaluate',
  summary:
    'Evaluate a git checkout against the 84 readiness criteria, offline (forge checks need a GitHub token); print a summary or the report, and optionally upload it.',
  positionals: [{ name: 'DIR', description: 'The checkout to evaluate (default: the current directory)', optional: true }],
  flags: {
    json: { type: 'boolean', description: 'Print the report as JSON instead of the summary' },
    upload: { type: 'boolean', description: 'Send the report to the application address (needs --url and --key, or a login)' },
    'repo-url': { type: 'string', value: 'URL', description: 'The repository URL to report (default: the origin remote)' },
    'github-token': { type: 'string', value: 'TOKEN', description: 'Token for the forge checks through the GitHub API (default: GITHUB_TOKEN)' },
    'min-level': { type: 'string', value: 'N', description: 'Exit 1 when the level (80 % rule) is below N (1-5): a CI gate' },
  },
  async run(ctx) {
    const dir = path.resolve(ctx.positionals[0] ?? '.');
    const minText = flag(ctx, 'min-level');
    const minLevel = minText === undefined ? undefined : Number(minText);
    if (minLevel !== undefined && !(Number.isInteger(minLevel) && minLevel >= 1 && minLevel <= 5))
      throw new CliError(`--min-level must be a whole number from 1 to 5, not "${minText}"`, 2);
    // The evaluator (its parsers, the forge's client) is loaded to run, not to list the command.
    const { evaluateRepository, NoRepositoryUrlError } = await import('./evaluate.js');
    let evaluation;
    try {
      evaluation = await evaluateRepository({
        dir,
        repoUrl: flag(ctx, 'repo-url'),
        githubToken: flag(ctx, 'github-token') ?? (ctx.env.GITHUB_TOKEN || undefined),
        githubApiUrl: ctx.env.GITHUB_API_URL || undefined,
      });
    } catch (e) {
      if (e instanceof NoRepositoryUrlError) throw new CliError(e.message, 2);
      throw new CliError(`Cannot evaluate ${dir}: ${(e as Error).message}`);
    }
    const json = ctx.values.json === true;
    // Said before the report is printed: an upload the service would refuse is not worth reading past.
    const { repoUrl } = evaluation.report;
    if (ctx.values.upload === true && canonicalRepoId(repoUrl) === undefined)
      throw new CliError(`Cannot upload: the repository URL ${repoUrl} ${notARepoUrl(repoUrl)}. Pass --repo-url URL, the repository's address.`, 2);
    process.stdout.write(json ? `${stableJson(evaluation.report)}\n` : humanSummary(evaluation));
    if (ctx.values.upload === true) {
      const stored = await unwrap(ctx.appApi().POST('/api/organization/maturity-level-reports', { body: uploadBody(evaluation.report) }));
      // With --json, standard output stays one JSON document.
      (json ? process.stderr : process.stdout).write(`Report ${stored.reportId} stored for ${stored.repoId}.\n`);
    }
    // GitHub Actions shows what a step appends to this file on the run's page.
    const summaryFile = ctx.env.GITHUB_STEP_SUMMARY;
    if (summaryFile) {
      try {
        appendFileSync(summaryFile, markdownSummary(evaluation, minLevel));
      } catch (e) {
        process.stderr.write(`Cannot write the step summary to ${summaryFile}: ${(e as Error).message}\n`);
      }
    }
    const { level } = evaluation.scores;
    if (minLevel !== undefined && level < minLevel) {
      process.stderr.write(`Readiness level ${level} is below the required level ${minLevel}.\n`);
      return 1;
    }
    return 0;
  },
};
