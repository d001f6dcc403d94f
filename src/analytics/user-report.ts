import { compileJson } from '../core/http/serialized-json.js';
import { DELEGATION_LEVELS } from '../events/schemas.js';
import { roundCredits } from './credits.js';
import { byText } from './day-reports.js';
import { UserRow } from './schemas.js';
import type { UserDayRow } from './store.js';

const userRowJson = compileJson(UserRow);

/** A /users row but for its `delegation_level`. */
type RowWithoutLevel = Omit<UserRow, 'delegation_level'>;

/**
 * One user-day's /users row as it is kept while its day keeps its version: serialized once, when
 * the day has sessions. Otherwise its `delegation_level` is the level of the user's latest earlier
 * session, which depends on other days and is known only when a page is put together
 * (userRows): then the row is kept as the object it is serialized from on every page. Either
 * way one shape of the row is kept, never both.
 */
export type UserDay = {
  /** The level of the day's latest session, if any: the fallback of the days after it. */
  last: string | null;
  /** Bytes the entry takes: its buffer or object, and a share for what is around it. */
  size: number;
} & ({ json: Buffer; row?: undefined } | { json?: undefined; row: RowWithoutLevel });

/** The most frequent level of the sessions started that day; ties go to the more autonomous level. */
function mostFrequentLevel(row: UserDayRow): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const level of DELEGATION_LEVELS) {
    const n = Number(row[`sessions_${level.replace(/-/g, '_')}`] ?? 0);
    if (n > bestCount) [best, bestCount] = [level, n];
  }
  return best;
}

export function userDay(d: UserDayRow): UserDay {
  const n = (c: string) => Number(d[c] ?? 0);
  const row: RowWithoutLevel = {
    user_id: d.user_id,
    user_email: d.user_email,
    date: d.date,
    tool_calls: n('tool_calls'),
    billable_tokens: roundCredits(String(d.credit_units)),
    primary_model: d.primary_model,
    primary_model_tier: d.primary_model_tier,
    files_created: n('files_created'),
    files_edited: n('files_edited'),
    git_commits: n('git_commits'),
    git_prs_created: n('git_prs_created'),
    mcp_calls: n('mcp_calls'),
    skill_calls: n('skill_calls'),
    slash_commands: n('slash_commands'),
    hooks: n('hooks'),
    sessions: n('sessions'),
    messages: n('messages'),
    user_messages: n('user_messages'),
    assistant_messages: n('messages') - n('user_messages'),
    autonomy_ratio: n('tool_calls') / Math.max(n('user_messages'), 1),
    languages: [...d.languages].sort(byText),
  };
  const own = mostFrequentLevel(d);
  const last = d.last_session_level;
  if (own !== null) {
    const json = userRowJson({ ...row, delegation_level: own });
    return { json, last, size: json.length + 96 };
  }
  // An object of strings and numbers takes about twice its JSON, and its array more.
  return { row, last, size: 2 * userRowJson({ ...row, delegation_level: 'manual' }).length + 256 };
}

/** Bytes a kept user-day takes; a user without a row that day is kept as null. */
export const userDayBytes = (e: UserDay | null): number => (e === null ? 16 : e.size);

/**
 * One user's rows, `days` in date order (null where the user was not active), serialized.
 * `earlier` is the level of the user's latest session before the first day. `shown` leaves out
 * the rows of some days (a team's, the days the user was not in it), whose sessions still give
 * the level of the days after them: it is the user's, not the team's.
 */
export function userRows(days: readonly (UserDay | null | undefined)[], earlier: string | undefined, shown?: (day: number) => boolean): Buffer[] {
  const rows: Buffer[] = [];
  let latest = earlier;
  days.forEach((d, i) => {
    if (!d) return;
    if (shown === undefined || shown(i)) rows.push(d.json ?? userRowJson({ ...d.row, delegation_level: latest ?? 'manual' }));
    if (d.last) latest = d.last;
  });
  return rows;
}
