import { DELEGATION_LEVELS } from '../events/schemas.js';
import { roundCredits } from './credits.js';
import { byText } from './day-reports.js';
import type { UserRow } from './schemas.js';
import type { UserDayRow } from './store.js';

/**
 * One user-day's /users row as UTF-8 JSON, but for its `delegation_level`: on a day
 * without sessions that is the level of the user's latest earlier session, so it depends on
 * other days and is filled in when a page is put together (userRowParts). Everything else
 * depends on the user-day's rollups alone, so it can be kept while its day keeps its version.
 */
export interface UserDayJson {
  /** The row up to `"delegation_level":`. */
  head: Buffer;
  /** `,"languages":[…]}`. */
  tail: Buffer;
  /** The most frequent level of the sessions started that day, if any. */
  own: string | null;
  /** The level of the day's latest session, if any: the fallback of the days after it. */
  last: string | null;
}

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

export function userDayJson(d: UserDayRow): UserDayJson {
  const n = (c: string) => Number(d[c] ?? 0);
  // In the order of the response schema, up to the level.
  const row: Omit<UserRow, 'delegation_level' | 'languages'> = {
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
  };
  const head = JSON.stringify(row);
  return {
    head: Buffer.from(`${head.slice(0, -1)},"delegation_level":`),
    tail: Buffer.from(`,"languages":${JSON.stringify([...d.languages].sort(byText))}}`),
    own: mostFrequentLevel(d),
    last: d.last_session_level,
  };
}

/** Bytes a kept user-day takes, counting its buffers and a share for the objects around them. */
export const userDayBytes = (e: UserDayJson | null): number => (e === null ? 16 : e.head.length + e.tail.length + 160);

const levelJson = new Map<string, Buffer>();
const levelOf = (level: string) => {
  let json = levelJson.get(level);
  if (json === undefined) levelJson.set(level, (json = Buffer.from(JSON.stringify(level))));
  return json;
};

/**
 * One user's rows, `days` in date order (null where the user was not active), as the parts of
 * each row. `earlier` is the level of the user's latest session before the first day.
 */
export function userRowParts(days: readonly (UserDayJson | null | undefined)[], earlier: string | undefined): Buffer[][] {
  const rows: Buffer[][] = [];
  let latest = earlier;
  for (const d of days) {
    if (!d) continue;
    rows.push([d.head, levelOf(d.own ?? latest ?? 'manual'), d.tail]);
    if (d.last) latest = d.last;
  }
  return rows;
}
