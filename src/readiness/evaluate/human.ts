import { CRITERION_BY_ID } from '../criteria.js';
import type { Evaluation } from './evaluate.js';

const pct = (r: number | null) => (r === null ? '-' : `${Math.round(r * 100)} %`);

/** The summary a person reads: levels, pass rate, pillars, and what fails with why. */
export function humanSummary(e: Evaluation): string {
  const { report, scores } = e;
  const lines = [
    `Repository: ${report.repoUrl}${report.commitHash ? ` @ ${report.commitHash.slice(0, 12)}` : ''}${report.branch ? ` (${report.branch})` : ''}`,
    `Applications: ${Object.keys(report.apps).join(', ')}`,
    `Level: ${scores.level} (80 % rule)   Band level: ${scores.bandLevel}   Pass rate: ${pct(scores.passRate)}`,
    '',
    'Pillars:',
    ...scores.pillars.map((p) => `  ${p.pillar.padEnd(28)} ${`${p.passed}/${p.evaluated}`.padStart(6)}  ${pct(p.rate)}`),
  ];
  const failing = Object.entries(report.report).filter(([, c]) => c.numerator !== null && c.numerator < c.denominator);
  const levelOf = (id: string) => CRITERION_BY_ID.get(id)?.level ?? 9;
  failing.sort(([a], [b]) => levelOf(a) - levelOf(b) || (a < b ? -1 : 1));
  lines.push('', `Failing criteria (${failing.length}):`);
  for (const [id, c] of failing) lines.push(`  L${levelOf(id)} ${id} ${c.numerator}/${c.denominator}: ${c.rationale}`);
  const skipped = Object.values(report.report).filter((c) => c.numerator === null).length;
  lines.push('', `${skipped} criteria skipped (see --json for their reasons).`);
  return `${lines.join('\n')}\n`;
}
