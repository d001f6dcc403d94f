/**
 * Each metric's definition, word for word from docs/analytics.md ("Metric definitions"; a test
 * checks that every one still appears there). Backticks mark field and event names as in the doc.
 */
export const DEFINITIONS = {
  daily_active_users: 'users active that day',
  weekly_active_users: "distinct users active in the 7 days ending on the row's date (the date and the 6 days before)",
  monthly_active_users: "distinct users active in the 30 days ending on the row's date",
  daily_active_users_by_client:
    'always the three keys `terminal-ui`, `web`, `non-interactive-cli`; a user active on several clients counts once in `daily_active_users` and once in each client',
  active: 'A user is **active** on a day if any event of theirs falls on it; **active on a client** if any such event has that client.',
  sessions: '`session_start` events that day',
  messages: '`message` events (user plus assistant)',
  user_messages: 'those with role `user`',
  billable_tokens: "Standard Credits of the day's model requests, rounded",
  tokens: 'sums of the reported fields',
  by_model: 'one row per model id (over its tiers and all users)',
  tool_calls: '`tool_call` events, in total and per tool',
  mcp_users_with_mcp: 'users with at least one `tool_call` naming an `mcpServer` that day',
  mcp_by_server: 'tool calls per MCP server name, **kept exactly as reported**: `GitHub` and `github` are two entries',
  skills: '`skill` events',
  slash_commands: '`slash_command` events',
  hooks: '`hook` events, per (event, matcher, command)',
  web_users: 'users active on client `web` that day',
  autonomy_ratio_avg:
    "over the **users active that day**, of each user-day's `autonomy_ratio` = tool calls ÷ max(user messages, 1); " +
    "p50/p90 by linear interpolation as PostgreSQL's `percentile_cont`; 0 on a day without active users",
  tool_calls_per_session_avg: "the day's tool calls ÷ the day's sessions (0 when there are none)",
  user_turns_per_session_avg: "the day's user messages ÷ the day's sessions (0 when there are none)",
  tool_autonomy_level_ratio:
    "each autonomy level's share of the day's tool calls, keys `auto_high`, `auto_medium`, `auto_low`, `manual`; all 0 on a day without tool calls",
  files: '`file_change` events by `change`',
  by_extension:
    'the lower-cased extension of the file name without its dot (`lib/x.PY` → `py`); files without one, and hidden files like `.gitignore`, count under `""`',
  by_language:
    "the event's `language` if given, else derived from the extension (`ts`/`tsx` → TypeScript, `py` → Python, " +
    '`md` → Markdown, … see `src/analytics/languages.ts`); files whose language is neither given nor known are not ' +
    'counted here',
  git: '`git_commit` and `pr_created` events',
  user_events: "the user's events of that day, as above",
  user_billable_tokens: "the user's Standard Credits that day, rounded",
  primary_model:
    'the model with the most credits that day (summed over its tiers; ties: the smallest id) and, of that model, ' +
    'the tier with the most credits (ties: `standard`). **Choice:** both are `null` on a day without model requests',
  autonomy_ratio: 'tool calls ÷ max(user messages, 1)',
  delegation_level:
    'the most frequent level of the sessions the user started that day (**Choice:** ties go to the more autonomous ' +
    "level, in the order `auto-high`, `auto-medium`, `auto-low`, `spec`, `manual`); else the level of the user's " +
    'latest earlier session (any day before, also before the range); else `manual`',
  languages: "the distinct languages of the user's file changes that day, sorted",
  credits_formula: 'billable_tokens = multiplier(model) × (input_tokens + cache_write_tokens + output_tokens + cache_read_tokens / 10)',
  rounding: 'A response rounds once, half up, to an integer: 202.75 credits are shown as 203.',
} as const;

export type Metric = keyof typeof DEFINITIONS;

/** A definition as plain text: the doc's markup (backticks, bold) left out. */
export const definitionText = (m: Metric): string => DEFINITIONS[m].replace(/\*\*|`/g, '');
