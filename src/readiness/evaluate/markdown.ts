import type { Evaluation } from './evaluate.js';
import { appsSplit, appTotals, failingCriteria, levelOf } from './human.js';

const pct = (r: number | null) => (r === null ? '-' : `${Math.round(r * 100)} %`);
/** Table cells hold no pipes or line breaks. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/**
 * The evaluation as Markdown for a CI system's job summary (`$GITHUB_STEP_SUMMARY`): the level
 * against the required one, the pillars, the applications of a monorepo, and what fails where.
 */
export function markdownSummary(e: Evaluation, minLevel: number | undefined): string {
  const { report, scores } = e;
  const monorepo = Object.keys(report.apps).length > 1;
  const gate =
    minLevel === undefined ? '' : scores.level >= minLevel ? ` (required ${minLevel}: passed)` : ` (required ${minLevel}: **below the required level**)`;
  const out = [
    `## Agent readiness: level ${scores.level}${gate}`,
    '',
    `${cell(report.repoUrl)}${report.commitHash ? ` @ \`${report.commitHash.slice(0, 12)}\`` : ''}: band level ${scores.bandLevel}, pass rate ${pct(scores.passRate)}.`,
    '',
    '| Pillar | Passed | Rate |',
    '|---|---|---|',
    ...scores.pillars.map((p) => `| ${p.pillar} | ${p.passed}/${p.evaluated} | ${pct(p.rate)} |`),
  ];
  if (monorepo) {
    out.push('', '| Application | Application criteria passed |', '|---|---|');
    for (const t of appTotals(e)) out.push(`| \`${cell(t.app)}\` | ${t.passed}/${t.applicable} |`);
  }
  const failing = failingCriteria(e);
  out.push('', `### Failing criteria (${failing.length})`, '');
  if (failing.length) {
    out.push(
      monorepo ? '| Level | Criterion | Fails in | Passes in | Why |' : '| Level | Criterion | Why |',
      monorepo ? '|---|---|---|---|---|' : '|---|---|---|',
    );
    for (const [id, c] of failing) {
      const split = appsSplit(e.byApp[id]);
      const apps = monorepo ? ` ${split.failing.map((a) => `\`${a}\``).join(', ') || '-'} | ${split.passing.map((a) => `\`${a}\``).join(', ') || '-'} |` : '';
      out.push(`| ${levelOf(id)} | \`${id}\` ${c.numerator}/${c.denominator} |${apps} ${cell(c.rationale)} |`);
    }
  }
  return `${out.join('\n')}\n`;
}
