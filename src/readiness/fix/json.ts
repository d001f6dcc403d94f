import type { Evaluation } from '../evaluate/evaluate.js';
import { verdictOf, type Plan } from './plan.js';
import { outcome } from './report.js';

/** Where the commit went: a local branch, a pull request, a branch pushed to a plain Git remote, or nowhere (dry run). */
export type Delivery =
  | { kind: 'dry-run'; branch: string }
  | { kind: 'branch'; branch: string; commit: string }
  | { kind: 'pull-request'; repo: string; branch: string; baseBranch: string; commit: string; number: number; url: string }
  | { kind: 'pushed'; repo: string; branch: string; baseBranch: string; commit: string };

interface JsonInput {
  repoUrl: string;
  head: string;
  plan: Plan;
  before: Evaluation;
  /** Absent when there was nothing to write. */
  after?: Evaluation;
  delivery?: Delivery;
}

/**
 * `readiness fix --json`: one document on standard output saying what was (or, with --dry-run,
 * would be) written, file by file with its content, each targeted criterion before and after,
 * and where the commit went. Keys are sorted, as `readiness evaluate --json` prints its report.
 */
export function fixJson(i: JsonInput) {
  const { plan, before, after } = i;
  const o = after ? outcome(plan, before, after) : undefined;
  const scores = (e: Evaluation | undefined) => (e ? { level: e.scores.level, passRate: e.scores.passRate } : null);
  return {
    repoUrl: i.repoUrl,
    head: i.head,
    dryRun: i.delivery?.kind === 'dry-run',
    written: i.delivery !== undefined && i.delivery.kind !== 'dry-run',
    plan: plan.steps.map((s) =>
      'files' in s
        ? { generator: s.generator, action: 'write', files: s.files.map((f) => f.path), criteria: s.criteria }
        : { generator: s.generator, action: 'leave', reason: s.left },
    ),
    files: plan.steps.flatMap((s) =>
      'files' in s ? s.files.map((f) => ({ path: f.path, generator: s.generator, criteria: s.criteria, content: f.content })) : [],
    ),
    criteria: plan.targeted.map((id) => ({
      id,
      before: verdictOf(before.report.report[id]),
      after: after ? verdictOf(after.report.report[id]) : null,
      rationale: (after ?? before).report.report[id]?.rationale ?? null,
      awaitsForge: o?.awaiting.includes(id) ?? false,
    })),
    before: scores(before),
    after: scores(after),
    otherChanges: o?.otherChanges ?? [],
    stillFailing: o?.stillFailing ?? [],
    regressions: (o?.regressions ?? []).map((c) => c.id),
    delivery: i.delivery ?? null,
  };
}
