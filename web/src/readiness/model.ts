import type { Body } from '../api.js';

export type Summary = Body<'/api/organization/agent-readiness-summary', 'get'>;
export type RepositorySummary = Summary['repositories'][number];
export type Criteria = Body<'/api/organization/readiness-criteria', 'get'>;
export type Report = Body<'/api/organization/maturity-level-reports', 'get'>['reports'][number];
type Evaluation = Report['report'][string];

export const LEVELS = [1, 2, 3, 4, 5] as const;

export const percent = (rate: number | null | undefined): string => (rate === null || rate === undefined ? '—' : `${Math.round(rate * 100)} %`);

export interface CriterionRow {
  id: string;
  pillar: string;
  checks: string;
  evaluation: Evaluation | undefined;
}

export interface LevelSection {
  level: number;
  rows: CriterionRow[];
  /** Mean of numerator / denominator over the level's evaluated criteria; null when none was evaluated. */
  rate: number | null;
  /** Locked until the level below reaches the model's share (80 %); level 1 is always open. */
  locked: boolean;
}

const share = (e: Evaluation | undefined): number | null => (e === undefined || e.numerator === null ? null : Math.min(1, e.numerator / e.denominator));

/**
 * A report placed in the model's levels, with the rule the summary's level follows: level N+1 opens
 * when level N passes at least `levelUp` by the mean of numerator / denominator. Criteria the model
 * does not know are returned apart, as the summary counts them in no level.
 */
export function levelSections(report: Report, criteria: Criteria): { sections: LevelSection[]; unknown: [string, Evaluation][] } {
  const known = new Set(criteria.criteria.map((c) => c.id));
  let open = true;
  const sections = LEVELS.map((level): LevelSection => {
    const rows = criteria.criteria
      .filter((c) => c.level === level)
      .map((c) => ({ id: c.id, pillar: c.pillar, checks: c.checks, evaluation: report.report[c.id] }));
    const shares = rows.map((r) => share(r.evaluation)).filter((x): x is number => x !== null);
    const rate = shares.length === 0 ? null : shares.reduce((a, b) => a + b, 0) / shares.length;
    const section = { level, rows, rate, locked: !open };
    open = open && rate !== null && rate >= criteria.levelUp;
    return section;
  });
  return { sections, unknown: Object.entries(report.report).filter(([id]) => !known.has(id)) };
}

/** `[X/Y]` of an evaluation, `skipped` for a skipped one, `not evaluated` when the report has none. */
export function score(e: Evaluation | undefined): { text: string; state: 'pass' | 'partial' | 'fail' | 'skipped' | 'missing' } {
  if (e === undefined) return { text: 'not evaluated', state: 'missing' };
  if (e.numerator === null) return { text: 'skipped', state: 'skipped' };
  const text = `[${e.numerator}/${e.denominator}]`;
  return { text, state: e.numerator >= e.denominator ? 'pass' : e.numerator === 0 ? 'fail' : 'partial' };
}

export interface AppSplit {
  passes: string[];
  fails: string[];
  notApplicable: string[];
}

/**
 * Which applications pass and fail an application criterion, read from the head of the rationale
 * orgctl's evaluator writes for a monorepo (`1/2 (passes in apps/web; fails in apps/api): ...`).
 * Reports in other forms (the agent's own tool) carry no split: undefined.
 */
export function appSplit(rationale: string): AppSplit | undefined {
  const head = /^\d+\/\d+ \(([^)]*)\): /.exec(rationale)?.[1];
  if (!head) return undefined;
  const split: AppSplit = { passes: [], fails: [], notApplicable: [] };
  for (const part of head.split('; ')) {
    const m = /^(passes in|fails in|does not apply in) (.+)$/.exec(part);
    if (!m) return undefined;
    const apps = m[2]!.split(', ');
    if (m[1] === 'passes in') split.passes = apps;
    else if (m[1] === 'fails in') split.fails = apps;
    else split.notApplicable = apps;
  }
  return split;
}
