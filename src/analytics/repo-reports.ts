import { DAY_MS, dayStartMs } from '../core/days.js';
import { scoreReport, type Evaluation } from '../readiness/levels.js';
import { roundCredits, tokenSums, UNITS_PER_CREDIT } from './credits.js';
import type { LevelReport, RepoDayRow, RepoTotalRow } from './repo-report-store.js';
import { MIN_REPOSITORIES, type LevelRow, type RepositoryRow } from './repo-schemas.js';

/** num / den rounded half up to `decimals` places, worked out exactly; null when den is 0. */
export function ratio(num: bigint, den: bigint, decimals: number): number | null {
  if (den === 0n) return null;
  const scale = 10n ** BigInt(decimals);
  return Number((num * scale * 2n + den) / (den * 2n)) / Number(scale);
}

/** Credit units per merged pull request, in credits to 2 decimals. */
const perMerged = (units: bigint, merged: number) => ratio(units, UNITS_PER_CREDIT * BigInt(merged), 2);

/**
 * Each repository's level on each day: the level of its latest report made at or before the end
 * of the day (reports oldest first). Returns level(repo, dayIndex), null before any report.
 */
export function levelsByDay(reports: LevelReport[], days: string[]) {
  const byRepo = new Map<string, { at: number; level: number }[]>();
  for (const r of reports) {
    const level = scoreReport(JSON.parse(r.report) as Record<string, Evaluation>).level;
    (byRepo.get(r.repo_id) ?? byRepo.set(r.repo_id, []).get(r.repo_id)!).push({ at: Number(r.created_at), level });
  }
  const ends = days.map((d) => dayStartMs(d) + DAY_MS);
  const table = new Map<string, (number | null)[]>();
  for (const [repo, list] of byRepo) {
    let i = 0;
    let level: number | null = null;
    table.set(
      repo,
      ends.map((end) => {
        while (i < list.length && list[i]!.at < end) level = list[i++]!.level;
        return level;
      }),
    );
  }
  return (repo: string, day: number): number | null => table.get(repo)?.[day] ?? null;
}

type Level = (repo: string, day: number) => number | null;

/** The repositories report's rows: one per repository with usage in the range, most credits first (then id). */
export function repositoryRows(totals: RepoTotalRow[], latest: Map<string, string>, days: string[], level: Level): RepositoryRow[] {
  const out = totals.map((t) => {
    const units = BigInt(t.credit_units);
    const tokens = tokenSums(t);
    return {
      units,
      repository: t.repo_id,
      ...tokens,
      tokens: tokens.input_tokens + tokens.output_tokens + tokens.cache_read_tokens + tokens.cache_write_tokens,
      sessions: Number(t.sessions),
      active_people: Number(t.active_people),
      tool_calls: Number(t.tool_calls),
      tool_errors: Number(t.tool_errors),
      git_commits: Number(t.git_commits),
      git_prs_created: Number(t.git_prs_created),
      git_prs_merged: Number(t.git_prs_merged),
      credits_per_merged_pr: perMerged(units, Number(t.git_prs_merged)),
      latest_report_id: latest.get(t.repo_id) ?? null,
      readiness: days.map((date, i) => ({ date, level: level(t.repo_id, i) })),
    };
  });
  out.sort((a, b) => (a.units === b.units ? (a.repository < b.repository ? -1 : 1) : a.units > b.units ? -1 : 1));
  return out.map(({ units: _units, ...row }) => row);
}

/**
 * Readiness pays? Each repository-day with usage counts at the level the repository had that day;
 * per level, the sums and the figures made of them, each only where enough repositories stand behind it.
 */
export function levelRows(rows: RepoDayRow[], days: string[], level: Level): LevelRow[] {
  const index = new Map(days.map((d, i) => [d, i]));
  const keys = [1, 2, 3, 4, 5, null] as const;
  const acc = new Map(keys.map((k) => [k, { repos: new Set<string>(), days: 0, units: 0n, sessions: 0, tools: 0, errors: 0, prs: 0, merged: 0 }]));
  for (const r of rows) {
    const a = acc.get(level(r.repo_id, index.get(r.date)!) as (typeof keys)[number])!;
    a.repos.add(r.repo_id);
    a.days += 1;
    a.units += BigInt(r.credit_units);
    a.sessions += Number(r.sessions);
    a.tools += Number(r.tool_calls);
    a.errors += Number(r.tool_errors);
    a.prs += Number(r.git_prs_created);
    a.merged += Number(r.git_prs_merged);
  }
  return keys.map((k) => {
    const a = acc.get(k)!;
    const enough = a.repos.size >= MIN_REPOSITORIES;
    return {
      level: k,
      repositories: a.repos.size,
      days: a.days,
      billable_tokens: roundCredits(a.units),
      sessions: a.sessions,
      tool_calls: a.tools,
      tool_errors: a.errors,
      git_prs_created: a.prs,
      git_prs_merged: a.merged,
      credits_per_merged_pr: enough ? perMerged(a.units, a.merged) : null,
      sessions_per_pr: enough ? ratio(BigInt(a.sessions), BigInt(a.prs), 2) : null,
      tool_error_rate: enough ? ratio(BigInt(a.errors), BigInt(a.tools), 4) : null,
    };
  });
}
