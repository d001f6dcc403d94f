import { CRITERIA } from '../criteria.js';
import { scoreReport, type Scores } from '../levels.js';
import { discoverApps, type App } from './apps.js';
import { CHECKS } from './checks/index.js';
import { githubForge } from './forge.js';
import { gitFacts, shownRepoUrl } from './git.js';
import { systemProbe, type MachineProbe } from './probe.js';
import { buildReport, type EvaluatedReport, type CriterionResult } from './report.js';
import { scanRepository } from './scan.js';
import type { Check, CheckContext, Outcome } from './types.js';

export interface EvaluateOptions {
  dir: string;
  /** Overrides the `origin` remote. */
  repoUrl?: string;
  githubToken?: string;
  /** https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server. */
  githubApiUrl?: string;
  /** The evaluating machine; the real one by default. */
  probe?: MachineProbe;
}

/** How one application fared on one application criterion. */
export type AppVerdict = { app: string; verdict: 'pass' | 'fail' | 'not applicable' };

export interface Evaluation {
  report: EvaluatedReport;
  scores: Scores;
  /** Application criteria, application by application: what the summaries show of a monorepo (the report holds counts only). */
  byApp: Record<string, AppVerdict[]>;
}

export class NoRepositoryUrlError extends Error {}

/** The spec caps a rationale at 500 characters. */
const MAX_RATIONALE = 500;
const clip = (s: string) => (s.length <= MAX_RATIONALE ? s : `${s.slice(0, MAX_RATIONALE - 3)}...`);

const checkById = new Map(CHECKS.map((c) => [c.id, c]));

async function runRepository(check: Extract<Check, { scope: 'repository' }>, ctx: CheckContext): Promise<CriterionResult> {
  const o = await check.run(ctx);
  if ('skip' in o) return { numerator: null, denominator: 1, rationale: clip(`skipped: ${o.skip}`) };
  return { numerator: o.pass ? 1 : 0, denominator: 1, rationale: clip(o.evidence) };
}

/**
 * Once per application. Skipped only when it applies to none; an application it does not apply to
 * counts as passing (nothing there to fix), so the denominator stays the application count.
 */
async function runApplications(
  check: Extract<Check, { scope: 'application' }>,
  ctx: CheckContext,
  apps: readonly App[],
  verdicts: AppVerdict[],
): Promise<CriterionResult> {
  const outcomes: [App, Outcome][] = [];
  for (const app of apps) outcomes.push([app, await check.run(ctx, app)]);
  for (const [a, o] of outcomes) verdicts.push({ app: a.path, verdict: 'skip' in o ? 'not applicable' : o.pass ? 'pass' : 'fail' });
  const denominator = apps.length;
  if (outcomes.every(([, o]) => 'skip' in o)) {
    const reasons = [...new Set(outcomes.map(([, o]) => ('skip' in o ? o.skip : '')))];
    return { numerator: null, denominator, rationale: clip(`skipped: ${reasons.join('; ')}`) };
  }
  const numerator = outcomes.filter(([, o]) => 'skip' in o || o.pass).length;
  if (apps.length === 1) {
    const o = outcomes[0]![1];
    return { numerator, denominator, rationale: clip('skip' in o ? o.skip : o.evidence) };
  }
  // The split comes first, in a fixed form the web page reads (`1/2 (passes in apps/web; fails in apps/api): ...`),
  // then each application's evidence, passing ones first, where the 500-character cap cuts last.
  const rank = (o: Outcome) => ('skip' in o ? 1 : o.pass ? 0 : 2);
  const sorted = [...outcomes].sort(([, a], [, b]) => rank(a) - rank(b));
  const where = (r: number) => sorted.filter(([, o]) => rank(o) === r).map(([a]) => a.path);
  const split = (
    [
      ['passes in', where(0)],
      ['fails in', where(2)],
      ['does not apply in', where(1)],
    ] as const
  )
    .filter(([, apps]) => apps.length)
    .map(([label, apps]) => `${label} ${apps.join(', ')}`);
  const parts = sorted.map(([a, o]) => `${a.path}: ${'skip' in o ? o.skip : o.evidence}`);
  return { numerator, denominator, rationale: clip(`${numerator}/${denominator} (${split.join('; ')}): ${parts.join('; ')}`) };
}

/** Evaluates the checkout at `dir` against every criterion of the model. Reads only; never runs repository code. */
export async function evaluateRepository(o: EvaluateOptions): Promise<Evaluation> {
  const scan = await scanRepository(o.dir);
  const [facts, discovery] = await Promise.all([gitFacts(scan.root), discoverApps(scan)]);
  const repoUrl = o.repoUrl === undefined ? facts.originUrl : shownRepoUrl(o.repoUrl);
  if (!repoUrl) throw new NoRepositoryUrlError(`${scan.root} has no origin remote: pass --repo-url URL`);
  const ctx: CheckContext = {
    scan,
    apps: discovery.apps,
    workspaces: discovery.workspaces,
    git: facts,
    forge: githubForge({ repoUrl, token: o.githubToken, apiUrl: o.githubApiUrl ?? 'https://api.github.com' }),
    probe: o.probe ?? systemProbe(),
  };
  const results: Record<string, CriterionResult> = {};
  const byApp: Record<string, AppVerdict[]> = {};
  await Promise.all(
    CRITERIA.map(async (criterion) => {
      const check = checkById.get(criterion.id);
      if (!check || check.scope !== criterion.scope) throw new Error(`No ${criterion.scope} check for criterion ${criterion.id}`);
      results[criterion.id] =
        check.scope === 'repository' ? await runRepository(check, ctx) : await runApplications(check, ctx, discovery.apps, (byApp[criterion.id] = []));
    }),
  );
  const report = buildReport({ repoUrl, facts, apps: discovery.apps, results });
  return { report, scores: scoreReport(report.report), byApp };
}
