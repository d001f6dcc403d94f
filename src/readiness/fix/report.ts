import type { Evaluation } from '../evaluate/evaluate.js';
import { changes, verdictOf, type Plan } from './plan.js';

const pct = (r: number) => `${Math.round(r * 100)} %`;

/** What the fix did to the evaluation: the targeted criteria that do not pass, and any other criterion that moved. */
export function outcome(plan: Plan, before: Evaluation, after: Evaluation) {
  const moved = changes(before.report.report, after.report.report);
  return {
    stillFailing: plan.targeted.filter((id) => verdictOf(after.report.report[id]) === 'fail'),
    otherChanges: moved.filter((c) => !plan.targeted.includes(c.id)),
  };
}

/** The pull request body (and, on plain Git, the commit message body): the files, then the evaluation before and after. */
export function pullRequestBody(plan: Plan, before: Evaluation, after: Evaluation): string {
  const rows = plan.steps.filter((s) => 'files' in s).flatMap((s) => s.files.map((f) => `| \`${f.path}\` | ${s.criteria.join(', ') || '-'} |`));
  const { stillFailing, otherChanges } = outcome(plan, before, after);
  const b = before.scores;
  const a = after.scores;
  const lines = [
    'Files that make readiness criteria pass, derived from the repository by `orgctl readiness fix`. No existing file is changed.',
    '',
    '| File | Criteria |',
    '|---|---|',
    ...rows,
    '',
    '## Readiness before and after',
    '',
    `Level ${b.level} -> ${a.level} (80 % rule); pass rate ${pct(b.passRate)} -> ${pct(a.passRate)}; evaluated at ${before.report.commitHash?.slice(0, 12) ?? 'HEAD'} and with this change.`,
    '',
    '| Criterion | Before | After |',
    '|---|---|---|',
    ...plan.targeted.map((id) => `| ${id} | ${verdictOf(before.report.report[id])} | ${verdictOf(after.report.report[id])} |`),
    '',
    otherChanges.length
      ? `Other criteria that changed: ${otherChanges.map((c) => `${c.id} (${c.before} -> ${c.after})`).join(', ')}.`
      : 'No other criterion changed.',
  ];
  if (stillFailing.length)
    lines.push('', `Still failing after the change: ${stillFailing.map((id) => `${id} (${after.report.report[id]!.rationale})`).join('; ')}.`);
  return `${lines.join('\n')}\n`;
}

/** What the terminal shows of the plan: each generator, written or left alone and why. */
export function planSummary(plan: Plan): string {
  return plan.steps
    .map((s) =>
      'files' in s
        ? `  write  ${s.files.map((f) => f.path).join(', ')}${s.criteria.length ? ` (${s.criteria.join(', ')})` : ''}`
        : `  leave  ${s.generator}: ${s.left}`,
    )
    .join('\n');
}
