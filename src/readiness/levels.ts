import { CRITERION_BY_ID, PILLARS, type Pillar } from './criteria.js';

/** One criterion as a report carries it; `numerator: null` is a skipped criterion. */
export type Evaluation = { numerator: number | null; denominator: number };

export interface PillarScore {
  pillar: Pillar;
  /** Criteria of the pillar every application passes (numerator = denominator). */
  passed: number;
  /** Criteria of the pillar evaluated (not skipped). */
  evaluated: number;
  /** passed / evaluated; null when nothing of the pillar was evaluated. */
  rate: number | null;
}

export interface Scores {
  /** Mean over evaluated criteria of numerator / denominator (each criterion weighs the same); 0 without any. */
  passRate: number;
  /** Level 1, and N+1 once at least 80 % of level N passes by the same mean (a level with nothing evaluated is not passed). */
  level: number;
  /** The pass rate in bands of 20 %: 0-20 % is 1, ..., 80-100 % is 5. */
  bandLevel: number;
  pillars: PillarScore[];
}

export const LEVEL_UP = 0.8;

const evaluated = (entries: [string, Evaluation][]) =>
  entries.filter((e): e is [string, { numerator: number; denominator: number }] => e[1].numerator !== null && e[1].denominator >= 1);

const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** The numbers a dashboard shows for one report. Criteria the model does not know count in the pass rate only. */
export function scoreReport(report: Record<string, Evaluation>): Scores {
  const done = evaluated(Object.entries(report));
  const share = ([, e]: [string, { numerator: number; denominator: number }]) => Math.min(1, e.numerator / e.denominator);
  const passRate = mean(done.map(share)) ?? 0;
  let level = 1;
  while (level < 5) {
    const rate = mean(done.filter(([id]) => CRITERION_BY_ID.get(id)?.level === level).map(share));
    if (rate === null || rate < LEVEL_UP) break;
    level += 1;
  }
  const pillars = PILLARS.map((pillar): PillarScore => {
    const mine = done.filter(([id]) => CRITERION_BY_ID.get(id)?.pillar === pillar);
    const passed = mine.filter(([, e]) => e.numerator >= e.denominator).length;
    return { pillar, passed, evaluated: mine.length, rate: mine.length === 0 ? null : passed / mine.length };
  });
  return { passRate, level, bandLevel: bandOf(passRate), pillars };
}

export const bandOf = (passRate: number): number => Math.min(5, Math.floor(passRate * 5) + 1);

/** The organization's level: the mean of each repository's latest level, rounded down; null without repositories. */
export const organizationLevel = (latestLevels: number[]): number | null =>
  latestLevels.length === 0 ? null : Math.floor(latestLevels.reduce((a, b) => a + b, 0) / latestLevels.length);
