import { roundCredits } from './credits.js';
import type { ActivityRow, ModelUsage, ProductivityRow, TokensModelRow, TokensRow, ToolsRow } from './schemas.js';
import type { ActivityDay, CounterRow, ModelDayRow, ModelRow, ToolsDay } from './store.js';

/** Code-unit order, the same on every database collation. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
/** Breakdown order: count descending, then name. */
const byCountThenName =
  <T>(count: (x: T) => bigint | number, name: (x: T) => string) =>
  (a: T, b: T) => {
    const ca = count(a),
      cb = count(b);
    return ca > cb ? -1 : ca < cb ? 1 : byText(name(a), name(b));
  };

const indexBy = <T extends { date: string }>(rows: T[]) => new Map(rows.map((r) => [r.date, r]));
const groupByDate = <T extends { date: string }>(rows: T[]) => {
  const m = new Map<string, T[]>();
  for (const r of rows) (m.get(r.date) ?? m.set(r.date, []).get(r.date)!).push(r);
  return m;
};
const ratio = (n: number, d: number) => (d === 0 ? 0 : n / d);

export function activityRows(days: string[], totals: ActivityDay[], windows: { date: string; wau: number; mau: number }[]): ActivityRow[] {
  const t = indexBy(totals),
    w = indexBy(windows);
  return days.map((date) => {
    const a = t.get(date);
    return {
      date,
      daily_active_users: a?.dau ?? 0,
      weekly_active_users: w.get(date)?.wau ?? 0,
      monthly_active_users: w.get(date)?.mau ?? 0,
      daily_active_users_by_client: { 'terminal-ui': a?.terminal_ui ?? 0, web: a?.web ?? 0, 'non-interactive-cli': a?.non_interactive_cli ?? 0 },
      sessions: Number(a?.sessions ?? 0),
      messages: Number(a?.messages ?? 0),
      user_messages: Number(a?.user_messages ?? 0),
    };
  });
}

export function activityByClient(totals: ActivityDay[]) {
  const rows: { date: string; group_key: string; daily_active_users: number }[] = [];
  for (const a of totals) {
    for (const [key, n] of [
      ['non-interactive-cli', a.non_interactive_cli],
      ['terminal-ui', a.terminal_ui],
      ['web', a.web],
    ] as const) {
      if (n > 0) rows.push({ date: a.date, group_key: key, daily_active_users: n });
    }
  }
  return rows.sort((x, y) => byText(x.date, y.date) || byText(x.group_key, y.group_key));
}

type Sums = { units: bigint; input: number; output: number; cacheRead: number; cacheWrite: number };
const zero = (): Sums => ({ units: 0n, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
function addTo(s: Sums, r: Pick<ModelRow, 'credit_units' | 'input_tokens' | 'output_tokens' | 'cache_read_tokens' | 'cache_write_tokens'>) {
  s.units += BigInt(r.credit_units);
  s.input += Number(r.input_tokens);
  s.output += Number(r.output_tokens);
  s.cacheRead += Number(r.cache_read_tokens);
  s.cacheWrite += Number(r.cache_write_tokens);
}
const tokenFields = (s: Sums) => ({
  billable_tokens: roundCredits(s.units),
  input_tokens: s.input,
  output_tokens: s.output,
  cache_read_tokens: s.cacheRead,
  cache_write_tokens: s.cacheWrite,
});

/** by_model items from model rows (one per model and tier), most credits first. */
function byModel(rows: ModelRow[]): ModelUsage[] {
  const m = new Map<string, { model: string; tier: string; s: Sums }>();
  for (const r of rows) {
    const k = JSON.stringify([r.model, r.tier]);
    const e = m.get(k) ?? m.set(k, { model: r.model, tier: r.tier, s: zero() }).get(k)!;
    addTo(e.s, r);
  }
  return [...m.values()]
    .sort(
      byCountThenName(
        (e) => e.s.units,
        (e) => `${e.model}\u0000${e.tier}`,
      ),
    )
    .map((e) => ({ model_id: e.model, model_tier: e.tier, ...tokenFields(e.s) }));
}

export function tokensRows(days: string[], models: ModelRow[]): TokensRow[] {
  const perDay = groupByDate(models);
  return days.map((date) => {
    const rows = perDay.get(date) ?? [];
    const total = zero();
    const users = new Map<string, { email: string | null; s: Sums; rows: ModelRow[] }>();
    for (const r of rows) {
      addTo(total, r);
      const u = users.get(r.user_id) ?? users.set(r.user_id, { email: r.user_email, s: zero(), rows: [] }).get(r.user_id)!;
      addTo(u.s, r);
      u.rows.push(r);
    }
    const byUser = [...users.entries()]
      .sort(
        byCountThenName(
          ([, u]) => u.s.units,
          ([id]) => id,
        ),
      )
      .map(([id, u]) => ({ user_id: id, user_email: u.email, billable_tokens: roundCredits(u.s.units), by_model: byModel(u.rows) }));
    return { date, ...tokenFields(total), by_model: byModel(rows), by_user: byUser };
  });
}

export function tokensByModel(rows: ModelDayRow[]): TokensModelRow[] {
  return rows
    .map((r) => {
      const s = zero();
      addTo(s, r);
      return { date: r.date, group_key: r.model, ...tokenFields(s) };
    })
    .sort((x, y) => byText(x.date, y.date) || byText(x.group_key, y.group_key));
}

function named(rows: CounterRow[] | undefined, kind: string) {
  return (rows ?? [])
    .filter((r) => r.kind === kind)
    .sort(
      byCountThenName(
        (r) => Number(r.count),
        (r) => `${r.name}\u0000${r.name2}\u0000${r.name3}`,
      ),
    );
}

export function toolsRows(days: string[], totals: ToolsDay[], counters: CounterRow[]): ToolsRow[] {
  const t = indexBy(totals),
    c = groupByDate(counters);
  return days.map((date) => {
    const d = t.get(date);
    const n = (v: number | undefined) => Number(v ?? 0);
    const calls = n(d?.tool_calls),
      sessions = n(d?.sessions);
    const cs = c.get(date);
    return {
      date,
      tool_calls: calls,
      by_tool: named(cs, 'tool').map((r) => ({ tool: r.name, invocations: Number(r.count) })),
      mcp_users_with_mcp: n(d?.mcp_users),
      mcp_by_server: named(cs, 'mcp_server').map((r) => ({ server: r.name, invocations: Number(r.count) })),
      skills_invocations: n(d?.skill_calls),
      skills_by_name: named(cs, 'skill').map((r) => ({ name: r.name, count: Number(r.count) })),
      slash_commands_invocations: n(d?.slash_commands),
      slash_commands_by_name: named(cs, 'slash_command').map((r) => ({ name: r.name, count: Number(r.count) })),
      hooks_invocations: n(d?.hooks),
      hooks_by_event: named(cs, 'hook').map((r) => ({ event: r.name, matcher: r.name2, command: r.name3, count: Number(r.count) })),
      web_users: n(d?.web_users),
      autonomy_ratio_avg: n(d?.ratio_avg),
      autonomy_ratio_p50: n(d?.ratio_p50),
      autonomy_ratio_p90: n(d?.ratio_p90),
      tool_calls_per_session_avg: ratio(calls, sessions),
      user_turns_per_session_avg: ratio(n(d?.user_messages), sessions),
      tool_autonomy_level_ratio: {
        auto_high: ratio(n(d?.tools_auto_high), calls),
        auto_medium: ratio(n(d?.tools_auto_medium), calls),
        auto_low: ratio(n(d?.tools_auto_low), calls),
        manual: ratio(n(d?.tools_manual), calls),
      },
    };
  });
}

export function toolsByName(counters: CounterRow[]) {
  return counters
    .filter((r) => r.kind === 'tool')
    .map((r) => ({ date: r.date, group_key: r.name, tool_calls: Number(r.count) }))
    .sort((x, y) => byText(x.date, y.date) || byText(x.group_key, y.group_key));
}

export function productivityRows(
  days: string[],
  totals: { date: string; files_created: number; files_edited: number; git_commits: number; git_prs_created: number }[],
  counters: CounterRow[],
): ProductivityRow[] {
  const t = indexBy(totals),
    c = groupByDate(counters);
  return days.map((date) => {
    const d = t.get(date);
    return {
      date,
      files_created: Number(d?.files_created ?? 0),
      files_edited: Number(d?.files_edited ?? 0),
      by_extension: named(c.get(date), 'extension').map((r) => ({ extension: r.name, count: Number(r.count) })),
      by_language: named(c.get(date), 'language').map((r) => ({ language: r.name, count: Number(r.count) })),
      git_commits: Number(d?.git_commits ?? 0),
      git_prs_created: Number(d?.git_prs_created ?? 0),
    };
  });
}
