import type { Evaluation } from '../evaluate/evaluate.js';
import { changes, verdictOf, type Plan } from './plan.js';

const pct = (r: number) => `${Math.round(r * 100)} %`;

/**
 * What the fix did to the evaluation: the targeted criteria that still fail (those awaiting the forge
 * apart), any other criterion that moved, and among those the ones that now fail. A non-empty
 * `stillFailing` or `regressions` makes the command exit 1.
 */
export function outcome(plan: Plan, before: Evaluation, after: Evaluation) {
  const moved = changes(before.report.report, after.report.report);
  const failing = plan.targeted.filter((id) => verdictOf(after.report.report[id]) === 'fail');
  const otherChanges = moved.filter((c) => !plan.targeted.includes(c.id));
  return {
    stillFailing: failing.filter((id) => !plan.awaits.includes(id)),
    awaiting: failing.filter((id) => plan.awaits.includes(id)),
    otherChanges,
    regressions: otherChanges.filter((c) => c.after === 'fail'),
  };
}

/** The pull request body (and, on plain Git, the commit message body): the files, then the evaluation before and after. */
export function pullRequestBody(plan: Plan, before: Evaluation, after: Evaluation): string {
  const rows = plan.steps.filter((s) => 'files' in s).flatMap((s) => s.files.map((f) => `| \`${f.path}\` | ${s.criteria.join(', ') || '-'} |`));
  const { stillFailing, awaiting, otherChanges } = outcome(plan, before, after);
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
  const why = (id: string) => `${id} (${after.report.report[id]!.rationale})`;
  if (awaiting.length) lines.push('', `Passes once the forge acts on the new files: ${awaiting.map(why).join('; ')}.`);
  if (stillFailing.length) lines.push('', `Still failing after the change: ${stillFailing.map(why).join('; ')}.`);
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
