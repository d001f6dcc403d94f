/** What the Users page keeps in the URL besides the range: the search text and the sort. */
export const SORT_KEYS = [
  'user',
  'role',
  'active_days',
  'last_active_date',
  'billable_tokens',
  'tool_calls',
  'sessions',
  'files_edited',
  'git_commits',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export interface UsersSearch {
  q?: string;
  sort?: SortKey;
  asc?: boolean;
}

export function usersSearch(s: Record<string, unknown>): UsersSearch {
  return {
    q: typeof s.q === 'string' && s.q !== '' ? s.q : undefined,
    sort: (SORT_KEYS as readonly unknown[]).includes(s.sort) ? (s.sort as SortKey) : undefined,
    asc: s.asc === true || s.asc === 'true' ? true : undefined,
  };
}
