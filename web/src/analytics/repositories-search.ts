/** What the Repositories page keeps in the URL besides the range: one repository, the sort and the level chart's figure. */
const REPO_SORT_KEYS = [
  'repository',
  'billable_tokens',
  'tokens',
  'sessions',
  'active_people',
  'tool_calls',
  'git_commits',
  'git_prs_merged',
  'credits_per_merged_pr',
  'level',
] as const;
export type RepoSortKey = (typeof REPO_SORT_KEYS)[number];
export const LEVEL_FIGURES = ['credits_per_merged_pr', 'sessions_per_pr', 'tool_error_rate'] as const;
export type LevelFigure = (typeof LEVEL_FIGURES)[number];

export interface RepositoriesSearch {
  /** A repository's canonical id (the readiness pages link here with it). */
  repo?: string;
  sort?: RepoSortKey;
  asc?: boolean;
  figure?: LevelFigure;
}

const oneOf = <T extends string>(list: readonly T[], v: unknown): T | undefined => ((list as readonly unknown[]).includes(v) ? (v as T) : undefined);

export function repositoriesSearch(s: Record<string, unknown>): RepositoriesSearch {
  return {
    repo: typeof s.repo === 'string' && s.repo !== '' ? s.repo : undefined,
    sort: oneOf(REPO_SORT_KEYS, s.sort),
    asc: s.asc === true || s.asc === 'true' ? true : undefined,
    figure: oneOf(LEVEL_FIGURES, s.figure),
  };
}
