import { CRITERION_BY_ID } from '../criteria.js';
import type { AppVerdict, Evaluation } from './evaluate.js';

const pct = (r: number | null) => (r === null ? '-' : `${Math.round(r * 100)} %`);
export const levelOf = (id: string) => CRITERION_BY_ID.get(id)?.level ?? 9;

/** The criteria not every application passes, lowest level first. */
export function failingCriteria(e: Evaluation): [string, { numerator: number | null; denominator: number; rationale: string }][] {
  const failing = Object.entries(e.report.report).filter(([, c]) => c.numerator !== null && c.numerator < c.denominator);
  return failing.sort(([a], [b]) => levelOf(a) - levelOf(b) || (a < b ? -1 : 1));
}

/** `apps/web, apps/admin` passing and failing one criterion, for a reader who has to act on it. */
export function appsSplit(verdicts: AppVerdict[] | undefined): { passing: string[]; failing: string[] } {
  const of = (v: AppVerdict['verdict']) => (verdicts ?? []).filter((x) => x.verdict === v).map((x) => x.app);
  return { passing: of('pass'), failing: of('fail') };
}

/** Per application, how many application criteria it passes of those that apply to it. */
export function appTotals(e: Evaluation): { app: string; passed: number; applicable: number }[] {
  return Object.keys(e.report.apps).map((app) => {
    const mine = Object.values(e.byApp).flatMap((vs) => vs.filter((v) => v.app === app && v.verdict !== 'not applicable'));
    return { app, passed: mine.filter((v) => v.verdict === 'pass').length, applicable: mine.length };
  });
}

/** The summary a person reads: levels, pass rate, pillars, and what fails with why (and, in a monorepo, where). */
export function humanSummary(e: Evaluation): string {
  const { report, scores } = e;
  const monorepo = Object.keys(report.apps).length > 1;
  const lines = [
    `Repository: ${report.repoUrl}${report.commitHash ? ` @ ${report.commitHash.slice(0, 12)}` : ''}${report.branch ? ` (${report.branch})` : ''}`,
    `Applications: ${Object.keys(report.apps).join(', ')}`,
    `Level: ${scores.level} (80 % rule)   Band level: ${scores.bandLevel}   Pass rate: ${pct(scores.passRate)}`,
    '',
    'Pillars:',
    ...scores.pillars.map((p) => `  ${p.pillar.padEnd(28)} ${`${p.passed}/${p.evaluated}`.padStart(6)}  ${pct(p.rate)}`),
  ];
  if (monorepo) {
    lines.push('', 'Applications (application criteria passed of those that apply):');
    for (const t of appTotals(e)) lines.push(`  ${t.app.padEnd(28)} ${`${t.passed}/${t.applicable}`.padStart(6)}`);
  }
  const failing = failingCriteria(e);
  lines.push('', `Failing criteria (${failing.length}):`);
  for (const [id, c] of failing) {
    lines.push(`  L${levelOf(id)} ${id} ${c.numerator}/${c.denominator}: ${c.rationale}`);
    if (monorepo && e.byApp[id]) {
      const { passing, failing: fails } = appsSplit(e.byApp[id]);
      lines.push(`      fails in: ${fails.join(', ') || '-'}   passes in: ${passing.join(', ') || '-'}`);
    }
  }
  const skipped = Object.values(report.report).filter((c) => c.numerator === null).length;
  lines.push('', `${skipped} criteria skipped (see --json for their reasons).`);
  return `${lines.join('\n')}\n`;
}
