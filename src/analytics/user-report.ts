import { DELEGATION_LEVELS } from '../telemetry/schemas.js';
import { roundCredits } from './credits.js';
import { byText } from './day-reports.js';
import type { UserRow } from './schemas.js';
import type { UserDayRow } from './store.js';

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

/**
 * User rows (contract §5), ordered by user then date. `earlierLevels` holds each user's
 * latest session before the range, the fallback of days without sessions.
 */
export function userRows(days: UserDayRow[], earlierLevels: Map<string, string>): UserRow[] {
  const latest = new Map(earlierLevels);
  return days.map((d) => {
    const n = (c: string) => Number(d[c] ?? 0);
    const level = mostFrequentLevel(d) ?? latest.get(d.user_id) ?? 'manual';
    if (d.last_session_level) latest.set(d.user_id, d.last_session_level);
    return {
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
      delegation_level: level,
      languages: [...d.languages].sort(byText),
    };
  });
}
