import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { CliError } from '../../core/cli/cli-error.js';
import { unwrap } from '../../client/api-client.js';
import type { paths } from '../../client/openapi-types.js';
import { flag, integerFlag, type ApiCommand, type CommandContext } from './command.js';
import { printList, when } from './print.js';
import { readinessEvaluate } from '../../readiness/evaluate/command.js';
import { readinessFix } from '../../readiness/fix/command.js';

type ReportUpload = paths['/api/organization/maturity-level-reports']['post']['requestBody']['content']['application/json'];

/** --json, kept from the first version of `readiness upload`, means --output json. */
const jsonOutput = (ctx: CommandContext) => ctx.values.json === true || ctx.output === 'json';

export const readinessUpload: ApiCommand = {
  name: 'readiness upload',
  summary: 'Send a readiness report (a JSON file, or - for standard input) to the application address and print the stored report.',
  positionals: [{ name: 'FILE', description: 'The report, or - to read standard input' }],
  flags: { json: { type: 'boolean', description: 'Print the stored report as JSON (same as --output json)' } },
  outputs: ['table', 'json'],
  async run(ctx) {
    const file = ctx.positionals[0] as string;
    let report: ReportUpload;
    try {
      const body = file === '-' ? await text(process.stdin) : await readFile(file, 'utf8');
      // The service validates the shape and lists every problem; here only that it is JSON.
      report = JSON.parse(body) as ReportUpload;
    } catch (e) {
      throw new CliError(`Cannot read a JSON report from ${file}: ${(e as Error).message}`);
    }
    const stored = await unwrap(ctx.appApi().POST('/api/organization/maturity-level-reports', { body: report }));
    if (jsonOutput(ctx)) process.stdout.write(`${JSON.stringify(stored)}\n`);
    else process.stdout.write(`Report ${stored.reportId} stored for ${stored.repoId} at ${new Date(stored.createdAt).toISOString()}.\n`);
    return 0;
  },
};

export const readinessList: ApiCommand = {
  name: 'readiness list',
  summary: 'Stored readiness reports, newest first.',
  flags: {
    repo: { type: 'string', value: 'REPO', description: 'Only reports of this repository (a repoId or any URL of it)' },
    limit: { type: 'string', value: 'N', description: 'Reports per page, 1 to 100 (default 20)' },
    'start-after': { type: 'string', value: 'REPORT_ID', description: 'The last reportId of the previous page' },
    all: { type: 'boolean', description: 'Every page to the end' },
  },
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const repoId = flag(ctx, 'repo');
    const limit = integerFlag(ctx, 'limit') ?? 20;
    let startAfter = flag(ctx, 'start-after');
    const reports = [];
    for (;;) {
      const page = await unwrap(
        ctx.appApi().GET('/api/organization/maturity-level-reports', {
          params: { query: { limit, ...(repoId ? { repoId } : {}), ...(startAfter ? { startAfter } : {}) } },
        }),
      );
      reports.push(...page.reports);
      const last = page.reports.at(-1);
      if (!ctx.values.all || !last || page.reports.length === 0) break;
      startAfter = last.reportId;
    }
    const rows =
      ctx.output === 'table'
        ? reports.map((r) => {
            const criteria = Object.values(r.report);
            const evaluated = criteria.filter((c) => c.numerator !== null);
            return {
              created: when(r.createdAt),
              repository: r.repoId,
              commit: r.commitHash?.slice(0, 12) ?? '',
              branch: r.branch ?? '',
              criteria: criteria.length,
              passed: evaluated.filter((c) => c.numerator === c.denominator).length,
              skipped: criteria.length - evaluated.length,
              report_id: r.reportId,
            };
          })
        : reports.map((r) => ({
            reportId: r.reportId,
            createdAt: r.createdAt,
            repoId: r.repoId,
            repoUrl: r.repoUrl,
            commitHash: r.commitHash ?? null,
            branch: r.branch ?? null,
            criteria: Object.keys(r.report).length,
          }));
    printList(ctx, { reports }, rows);
    return 0;
  },
};

export const readinessSummary: ApiCommand = {
  name: 'readiness summary',
  summary: "The organization's readiness level, and each repository's latest level, pass rate and pillar rates.",
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const body = await unwrap(ctx.appApi().GET('/api/organization/agent-readiness-summary'));
    const pct = (r: number | null) => (r === null ? '-' : `${Math.round(r * 100)} %`);
    if (ctx.output === 'table') {
      const o = body.organization;
      process.stdout.write(`Organization level: ${o.level ?? '-'} over ${o.repositories} repositories (last evaluated ${when(o.lastEvaluatedAt)})\n\n`);
    }
    const rows = body.repositories.map((r) => ({
      repository: r.repoId,
      level: r.latest.level,
      band_level: r.latest.bandLevel,
      pass_rate: ctx.output === 'table' ? pct(r.latest.passRate) : r.latest.passRate,
      reports: r.reports,
      evaluated: ctx.output === 'table' ? when(r.latest.createdAt) : r.latest.createdAt,
      ...Object.fromEntries(r.latest.pillars.map((p) => [p.pillar, ctx.output === 'table' ? pct(p.rate) : p.rate])),
    }));
    printList(ctx, body, rows);
    return 0;
  },
};

export const readinessCommands = [readinessUpload, readinessList, readinessSummary, readinessEvaluate, readinessFix];
