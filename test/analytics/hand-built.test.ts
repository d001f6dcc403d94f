import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { event as ev, ingest, query, tokens } from './fixture.js';

/*
 * A hand-built fixture: organization A with six active users over a month boundary (2026-09-28
 * to 2026-10-01, plus earlier days for the 7- and 30-day windows), three clients, cache tokens,
 * MCP servers "GitHub" and "github", and organization B, whose events must never show in A.
 * Every expected number below is worked out by hand in the comments.
 */
let t: TestApp;
let a: Org;
let b: Org;
const u: Record<string, { id: string; email: string }> = {};
const range = { startDate: '2026-09-28', endDate: '2026-10-01' };

beforeAll(async () => {
  t = await TestApp.start();
  a = await t.createOrg('org-a');
  b = await t.createOrg('org-b');
  for (const name of ['u1', 'u2', 'u3', 'u4', 'u5', 'u6']) u[name] = await t.addUser(a, 'member', `${name}@a.test`);
  for (const name of ['b1', 'b2']) u[name] = await t.addUser(b, 'member', `${name}@b.test`);
  const [u1, u2, u3, u4, u5, u6] = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].map((n) => u[n]!.id) as [string, string, string, string, string, string];
  const T = 'terminal-ui',
    W = 'web',
    N = 'non-interactive-cli';
  await ingest(t, a, [
    // Before the range: u4 on 09-01 (last day of the 30-day window of 09-30), u3's spec session on 09-15,
    // u5 on 09-22 (first day of the 7-day window of 09-28), u6 on 09-23.
    ev(u4, 'git_commit', '2026-09-01T12:00:00Z', W),
    ev(u3, 'session_start', '2026-09-15T08:00:00Z', T, { delegationLevel: 'spec' }),
    ev(u5, 'message', '2026-09-22T09:00:00Z', N, { role: 'user' }),
    ev(u6, 'message', '2026-09-23T09:00:00Z', W, { role: 'assistant' }),
    // 09-28: u1 on the terminal, u2 on the web.
    ev(u1, 'session_start', '2026-09-28T09:00:00Z', T, { delegationLevel: 'auto-high' }),
    ev(u1, 'message', '2026-09-28T09:01:00Z', T, { role: 'user' }),
    ev(u1, 'message', '2026-09-28T09:02:00Z', T, { role: 'assistant' }),
    ev(u1, 'message', '2026-09-28T09:03:00Z', T, { role: 'user' }),
    ev(u1, 'tool_call', '2026-09-28T09:04:00Z', T, { tool: 'Read', autonomyLevel: 'auto-high' }),
    ev(u1, 'tool_call', '2026-09-28T09:05:00Z', T, { tool: 'Edit', autonomyLevel: 'auto-high' }),
    ev(u1, 'tool_call', '2026-09-28T09:06:00Z', T, { tool: 'create_issue', autonomyLevel: 'auto-medium', mcpServer: 'GitHub' }),
    ev(u1, 'model_request', '2026-09-28T09:07:00Z', T, tokens('claude-sonnet-4-5', 'standard', 1000, 500, 2000, 100)),
    ev(u1, 'file_change', '2026-09-28T09:08:00Z', T, { path: 'src/a.ts', change: 'created' }),
    ev(u1, 'file_change', '2026-09-28T09:09:00Z', T, { path: 'README.md', change: 'edited' }),
    ev(u1, 'git_commit', '2026-09-28T09:10:00Z', T),
    ev(u2, 'session_start', '2026-09-28T10:00:00Z', W, { delegationLevel: 'auto-medium' }),
    ev(u2, 'message', '2026-09-28T10:01:00Z', W, { role: 'user' }),
    ev(u2, 'tool_call', '2026-09-28T10:02:00Z', W, { tool: 'list_repos', autonomyLevel: 'manual', mcpServer: 'github' }),
    ev(u2, 'model_request', '2026-09-28T10:03:00Z', W, tokens('gpt-5', 'standard', 300, 100, 55, 0)),
    ev(u2, 'slash_command', '2026-09-28T10:04:00Z', W, { name: '/review' }),
    // 09-29: only u3, headless, tool calls without any session or user message.
    ev(u3, 'tool_call', '2026-09-29T03:00:00Z', N, { tool: 'Bash', autonomyLevel: 'auto-low' }),
    ev(u3, 'tool_call', '2026-09-29T03:01:00Z', N, { tool: 'Bash', autonomyLevel: 'auto-low' }),
    ev(u3, 'hook', '2026-09-29T03:02:00Z', N, { event: 'Stop', matcher: '', command: 'notify.sh' }),
    // 09-30: u1 starts a spec session at 23:00 that continues past midnight into October.
    ev(u1, 'session_start', '2026-09-30T23:00:00Z', T, { delegationLevel: 'spec' }, 'a2'),
    ev(u1, 'message', '2026-09-30T23:10:00Z', T, { role: 'user' }, 'a2'),
    ev(u1, 'tool_call', '2026-09-30T23:20:00Z', T, { tool: 'Grep', autonomyLevel: 'auto-medium' }, 'a2'),
    ev(u1, 'tool_call', '2026-09-30T23:30:00Z', W, { tool: 'Read', autonomyLevel: 'auto-high' }, 'a2'),
    ev(u1, 'model_request', '2026-09-30T23:40:00+00:00', T, tokens('claude-opus-4-1-thinking', 'thinking', 200, 300, 1000, 0), 'a2'),
    ev(u2, 'message', '2026-09-30T08:00:00Z', W, { role: 'user' }),
    ev(u2, 'message', '2026-09-30T08:01:00Z', W, { role: 'user' }),
    ev(u2, 'tool_call', '2026-09-30T08:02:00Z', W, { tool: 'Read', autonomyLevel: 'manual' }),
    ev(u2, 'model_request', '2026-09-30T08:03:00Z', W, tokens('gpt-5', 'standard', 100, 0, 0, 0)),
    ev(u2, 'model_request', '2026-09-30T08:04:00Z', W, tokens('unknown-model', 'standard', 50, 0, 0, 0)),
    ev(u3, 'skill', '2026-09-30T12:00:00Z', T, { name: 'pdf' }),
    ev(u3, 'skill', '2026-09-30T12:01:00Z', T, { name: 'pdf' }),
    ev(u3, 'file_change', '2026-09-30T12:02:00Z', T, { path: 'Makefile', change: 'edited' }),
    ev(u3, 'file_change', '2026-09-30T12:03:00Z', T, { path: 'lib/x.PY', change: 'created' }),
    ev(u3, 'file_change', '2026-09-30T12:04:00Z', T, { path: 'scripts/build', change: 'created', language: 'Shell' }),
    // 10-01: u1's session goes on (no new session_start); u3 starts three sessions.
    ev(u1, 'message', '2026-10-01T00:10:00Z', T, { role: 'user' }, 'a2'),
    ev(u1, 'tool_call', '2026-10-01T00:20:00Z', T, { tool: 'Edit', autonomyLevel: 'auto-high' }, 'a2'),
    ev(u1, 'pr_created', '2026-10-01T00:30:00Z', T, {}, 'a2'),
    ev(u1, 'model_request', '2026-10-01T02:40:00+02:00', T, tokens('claude-sonnet-4-5', 'standard', 10, 10, 5, 0), 'a2'),
    ev(u3, 'session_start', '2026-10-01T06:00:00Z', N, { delegationLevel: 'auto-low' }),
    ev(u3, 'session_start', '2026-10-01T07:00:00Z', N, { delegationLevel: 'auto-medium' }),
    ev(u3, 'session_start', '2026-10-01T08:00:00Z', N, { delegationLevel: 'auto-low' }),
    ev(u3, 'message', '2026-10-01T08:01:00Z', N, { role: 'user' }),
    ev(u3, 'message', '2026-10-01T08:02:00Z', N, { role: 'assistant' }),
    ev(u3, 'tool_call', '2026-10-01T08:03:00Z', N, { tool: 'Bash', autonomyLevel: 'auto-low', mcpServer: 'GitHub' }),
  ]);
  await ingest(t, b, [
    ev(u.b1!.id, 'model_request', '2026-09-28T10:00:00Z', W, tokens('gpt-5', 'standard', 1000, 0, 0, 0)),
    ev(u.b1!.id, 'tool_call', '2026-09-28T10:01:00Z', W, { tool: 'Read', autonomyLevel: 'auto-high', mcpServer: 'GitHub' }),
    ev(u.b2!.id, 'session_start', '2026-09-30T10:00:00Z', T, { delegationLevel: 'manual' }),
  ]);
});
afterAll(() => t?.close());

const get = async (path: string, params: Record<string, string | number | undefined> = {}, org = a) => {
  const res = await t.request<{ data: Record<string, unknown>[]; meta: Record<string, unknown> }>('GET', query(path, { ...range, ...params }), {
    key: org.ownerKey,
  });
  expect(res.status, res.raw).toBe(200);
  return res.body;
};
const model = (
  model_id: string,
  model_tier: string,
  billable_tokens: number,
  input_tokens: number,
  output_tokens: number,
  cache_read_tokens: number,
  cache_write_tokens: number,
) => ({
  model_id,
  model_tier,
  billable_tokens,
  input_tokens,
  output_tokens,
  cache_read_tokens,
  cache_write_tokens,
});

describe('activity', () => {
  it('counts daily, weekly and monthly active users, clients, sessions and messages', async () => {
    const body = await get('activity');
    expect(body.meta).toEqual({ org_id: a.orgId, start_date: '2026-09-28', end_date: '2026-10-01' });
    const c = (tui: number, web: number, nic: number) => ({ 'terminal-ui': tui, web, 'non-interactive-cli': nic });
    expect(body.data).toEqual([
      // WAU 09-28: window 09-22..09-28 = u5 (its first day), u6, u1, u2. MAU: 08-30..09-28 = u4, u3, u5, u6, u1, u2.
      {
        date: '2026-09-28',
        daily_active_users: 2,
        weekly_active_users: 4,
        monthly_active_users: 6,
        daily_active_users_by_client: c(1, 1, 0),
        sessions: 2,
        messages: 4,
        user_messages: 3,
      },
      // WAU 09-29: 09-23..09-29 = u6, u1, u2, u3 (u5 just left).
      {
        date: '2026-09-29',
        daily_active_users: 1,
        weekly_active_users: 4,
        monthly_active_users: 6,
        daily_active_users_by_client: c(0, 0, 1),
        sessions: 0,
        messages: 0,
        user_messages: 0,
      },
      // u1 used the terminal and the web: once in DAU, once in each client. MAU 09-01..09-30 still has u4.
      {
        date: '2026-09-30',
        daily_active_users: 3,
        weekly_active_users: 3,
        monthly_active_users: 6,
        daily_active_users_by_client: c(2, 2, 0),
        sessions: 1,
        messages: 3,
        user_messages: 3,
      },
      // MAU 09-02..10-01: u4 has left.
      {
        date: '2026-10-01',
        daily_active_users: 2,
        weekly_active_users: 3,
        monthly_active_users: 5,
        daily_active_users_by_client: c(1, 0, 1),
        sessions: 3,
        messages: 3,
        user_messages: 2,
      },
    ]);
  });

  it('group_by=client: one row per client with activity, by date then client', async () => {
    expect((await get('activity', { group_by: 'client' })).data).toEqual([
      { date: '2026-09-28', group_key: 'terminal-ui', daily_active_users: 1 },
      { date: '2026-09-28', group_key: 'web', daily_active_users: 1 },
      { date: '2026-09-29', group_key: 'non-interactive-cli', daily_active_users: 1 },
      { date: '2026-09-30', group_key: 'terminal-ui', daily_active_users: 2 },
      { date: '2026-09-30', group_key: 'web', daily_active_users: 2 },
      { date: '2026-10-01', group_key: 'non-interactive-cli', daily_active_users: 1 },
      { date: '2026-10-01', group_key: 'terminal-ui', daily_active_users: 1 },
    ]);
  });

  it('the other organization sees only its own events', async () => {
    const body = await get('activity', {}, b);
    expect(body.data.map((r) => r.daily_active_users)).toEqual([1, 0, 1, 0]);
    expect(body.data.map((r) => r.monthly_active_users)).toEqual([1, 1, 2, 2]);
    const tok = await get('tokens', {}, b);
    expect(tok.data[0]!.billable_tokens).toBe(500);
  });
});

describe('tokens', () => {
  it('sums credits exactly with cache reads at a tenth, by model and by user', async () => {
    const { data } = await get('tokens');
    // u1: 1.2 × (1000 + 100 + 500 + 2000/10) = 2160; u2: 0.5 × (300 + 0 + 100 + 55/10) = 202.75 → 203. Total 2362.75 → 2363.
    expect(data[0]).toEqual({
      date: '2026-09-28',
      billable_tokens: 2363,
      input_tokens: 1300,
      output_tokens: 600,
      cache_read_tokens: 2055,
      cache_write_tokens: 100,
      by_model: [model('claude-sonnet-4-5', 'standard', 2160, 1000, 500, 2000, 100), model('gpt-5', 'standard', 203, 300, 100, 55, 0)],
      by_user: [
        { user_id: u.u1!.id, user_email: 'u1@a.test', billable_tokens: 2160, by_model: [model('claude-sonnet-4-5', 'standard', 2160, 1000, 500, 2000, 100)] },
        { user_id: u.u2!.id, user_email: 'u2@a.test', billable_tokens: 203, by_model: [model('gpt-5', 'standard', 203, 300, 100, 55, 0)] },
      ],
    });
    expect(data[1]).toEqual({
      date: '2026-09-29',
      billable_tokens: 0,
      input_tokens: 0,
      output_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      by_model: [],
      by_user: [],
    });
    // u1: 2 × (200 + 300 + 1000/10) = 1200; u2: gpt-5 0.5 × 100 = 50 and an unknown model at 1× 50 = 50 (tie: by name).
    expect(data[2]).toEqual({
      date: '2026-09-30',
      billable_tokens: 1300,
      input_tokens: 350,
      output_tokens: 300,
      cache_read_tokens: 1000,
      cache_write_tokens: 0,
      by_model: [
        model('claude-opus-4-1-thinking', 'thinking', 1200, 200, 300, 1000, 0),
        model('gpt-5', 'standard', 50, 100, 0, 0, 0),
        model('unknown-model', 'standard', 50, 50, 0, 0, 0),
      ],
      by_user: [
        {
          user_id: u.u1!.id,
          user_email: 'u1@a.test',
          billable_tokens: 1200,
          by_model: [model('claude-opus-4-1-thinking', 'thinking', 1200, 200, 300, 1000, 0)],
        },
        {
          user_id: u.u2!.id,
          user_email: 'u2@a.test',
          billable_tokens: 100,
          by_model: [model('gpt-5', 'standard', 50, 100, 0, 0, 0), model('unknown-model', 'standard', 50, 50, 0, 0, 0)],
        },
      ],
    });
    // 02:40+02:00 is 00:40Z on 10-01: 1.2 × (10 + 10 + 5/10) = 24.6 → 25.
    expect(data[3]).toMatchObject({ date: '2026-10-01', billable_tokens: 25, input_tokens: 10, output_tokens: 10, cache_read_tokens: 5 });
  });

  it('group_by=model: one flat row per model per day', async () => {
    expect((await get('tokens', { group_by: 'model' })).data).toEqual([
      {
        date: '2026-09-28',
        group_key: 'claude-sonnet-4-5',
        billable_tokens: 2160,
        input_tokens: 1000,
        output_tokens: 500,
        cache_read_tokens: 2000,
        cache_write_tokens: 100,
      },
      { date: '2026-09-28', group_key: 'gpt-5', billable_tokens: 203, input_tokens: 300, output_tokens: 100, cache_read_tokens: 55, cache_write_tokens: 0 },
      {
        date: '2026-09-30',
        group_key: 'claude-opus-4-1-thinking',
        billable_tokens: 1200,
        input_tokens: 200,
        output_tokens: 300,
        cache_read_tokens: 1000,
        cache_write_tokens: 0,
      },
      { date: '2026-09-30', group_key: 'gpt-5', billable_tokens: 50, input_tokens: 100, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 },
      { date: '2026-09-30', group_key: 'unknown-model', billable_tokens: 50, input_tokens: 50, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 },
      {
        date: '2026-10-01',
        group_key: 'claude-sonnet-4-5',
        billable_tokens: 25,
        input_tokens: 10,
        output_tokens: 10,
        cache_read_tokens: 5,
        cache_write_tokens: 0,
      },
    ]);
  });
});

describe('tools', () => {
  it('counts tools, MCP servers by exact name, skills, commands, hooks and autonomy', async () => {
    const { data } = await get('tools');
    const none = {
      skills_invocations: 0,
      skills_by_name: [],
      slash_commands_invocations: 0,
      slash_commands_by_name: [],
      hooks_invocations: 0,
      hooks_by_event: [],
    };
    // Ratios 09-28: u1 3/2 = 1.5, u2 1/1 = 1 → avg 1.25, p50 1.25, p90 1 + 0.9 × 0.5 = 1.45.
    expect(data[0]).toEqual({
      date: '2026-09-28',
      tool_calls: 4,
      by_tool: [
        { tool: 'Edit', invocations: 1 },
        { tool: 'Read', invocations: 1 },
        { tool: 'create_issue', invocations: 1 },
        { tool: 'list_repos', invocations: 1 },
      ],
      mcp_users_with_mcp: 2,
      mcp_by_server: [
        { server: 'GitHub', invocations: 1 },
        { server: 'github', invocations: 1 },
      ],
      ...none,
      slash_commands_invocations: 1,
      slash_commands_by_name: [{ name: '/review', count: 1 }],
      web_users: 1,
      autonomy_ratio_avg: 1.25,
      autonomy_ratio_p50: 1.25,
      autonomy_ratio_p90: expect.closeTo(1.45, 10),
      tool_calls_per_session_avg: 2,
      user_turns_per_session_avg: 1.5,
      tool_autonomy_level_ratio: { auto_high: 0.5, auto_medium: 0.25, auto_low: 0, manual: 0.25 },
    });
    // 09-29: u3 has 2 calls and no user message: ratio 2 / max(0, 1) = 2. No session: per-session averages 0.
    expect(data[1]).toEqual({
      date: '2026-09-29',
      tool_calls: 2,
      by_tool: [{ tool: 'Bash', invocations: 2 }],
      mcp_users_with_mcp: 0,
      mcp_by_server: [],
      ...none,
      hooks_invocations: 1,
      hooks_by_event: [{ event: 'Stop', matcher: '', command: 'notify.sh', count: 1 }],
      web_users: 0,
      autonomy_ratio_avg: 2,
      autonomy_ratio_p50: 2,
      autonomy_ratio_p90: 2,
      tool_calls_per_session_avg: 0,
      user_turns_per_session_avg: 0,
      tool_autonomy_level_ratio: { auto_high: 0, auto_medium: 0, auto_low: 1, manual: 0 },
    });
    // 09-30 ratios: u3 0, u2 1/2, u1 2/1 → avg 2.5/3, p50 0.5, p90 at 1.8 → 0.5 + 0.8 × 1.5 = 1.7.
    expect(data[2]).toEqual({
      date: '2026-09-30',
      tool_calls: 3,
      by_tool: [
        { tool: 'Read', invocations: 2 },
        { tool: 'Grep', invocations: 1 },
      ],
      mcp_users_with_mcp: 0,
      mcp_by_server: [],
      ...none,
      skills_invocations: 2,
      skills_by_name: [{ name: 'pdf', count: 2 }],
      web_users: 2,
      autonomy_ratio_avg: expect.closeTo(2.5 / 3, 10),
      autonomy_ratio_p50: 0.5,
      autonomy_ratio_p90: expect.closeTo(1.7, 10),
      tool_calls_per_session_avg: 3,
      user_turns_per_session_avg: 3,
      tool_autonomy_level_ratio: {
        auto_high: expect.closeTo(1 / 3, 10),
        auto_medium: expect.closeTo(1 / 3, 10),
        auto_low: 0,
        manual: expect.closeTo(1 / 3, 10),
      },
    });
    expect(data[3]).toEqual({
      date: '2026-10-01',
      tool_calls: 2,
      by_tool: [
        { tool: 'Bash', invocations: 1 },
        { tool: 'Edit', invocations: 1 },
      ],
      mcp_users_with_mcp: 1,
      mcp_by_server: [{ server: 'GitHub', invocations: 1 }],
      ...none,
      web_users: 0,
      autonomy_ratio_avg: 1,
      autonomy_ratio_p50: 1,
      autonomy_ratio_p90: 1,
      tool_calls_per_session_avg: expect.closeTo(2 / 3, 10),
      user_turns_per_session_avg: expect.closeTo(2 / 3, 10),
      tool_autonomy_level_ratio: { auto_high: 0.5, auto_medium: 0, auto_low: 0.5, manual: 0 },
    });
  });

  it('group_by=tool_name: one row per tool per day', async () => {
    expect((await get('tools', { group_by: 'tool_name' })).data).toEqual([
      { date: '2026-09-28', group_key: 'Edit', tool_calls: 1 },
      { date: '2026-09-28', group_key: 'Read', tool_calls: 1 },
      { date: '2026-09-28', group_key: 'create_issue', tool_calls: 1 },
      { date: '2026-09-28', group_key: 'list_repos', tool_calls: 1 },
      { date: '2026-09-29', group_key: 'Bash', tool_calls: 2 },
      { date: '2026-09-30', group_key: 'Grep', tool_calls: 1 },
      { date: '2026-09-30', group_key: 'Read', tool_calls: 2 },
      { date: '2026-10-01', group_key: 'Bash', tool_calls: 1 },
      { date: '2026-10-01', group_key: 'Edit', tool_calls: 1 },
    ]);
  });
});

describe('productivity', () => {
  it('counts files by lower-cased extension ("" without one) and language, commits and PRs', async () => {
    expect((await get('productivity')).data).toEqual([
      {
        date: '2026-09-28',
        files_created: 1,
        files_edited: 1,
        by_extension: [
          { extension: 'md', count: 1 },
          { extension: 'ts', count: 1 },
        ],
        by_language: [
          { language: 'Markdown', count: 1 },
          { language: 'TypeScript', count: 1 },
        ],
        git_commits: 1,
        git_prs_created: 0,
      },
      { date: '2026-09-29', files_created: 0, files_edited: 0, by_extension: [], by_language: [], git_commits: 0, git_prs_created: 0 },
      {
        date: '2026-09-30',
        files_created: 2,
        files_edited: 1,
        by_extension: [
          { extension: '', count: 2 },
          { extension: 'py', count: 1 },
        ],
        by_language: [
          { language: 'Python', count: 1 },
          { language: 'Shell', count: 1 },
        ],
        git_commits: 0,
        git_prs_created: 0,
      },
      { date: '2026-10-01', files_created: 0, files_edited: 0, by_extension: [], by_language: [], git_commits: 0, git_prs_created: 1 },
    ]);
  });
});

describe('users', () => {
  const row = (user: string, date: string, fields: Record<string, unknown>) => ({
    user_id: u[user]!.id,
    user_email: `${user}@a.test`,
    date,
    tool_calls: 0,
    billable_tokens: 0,
    primary_model: null,
    primary_model_tier: null,
    files_created: 0,
    files_edited: 0,
    git_commits: 0,
    git_prs_created: 0,
    mcp_calls: 0,
    skill_calls: 0,
    slash_commands: 0,
    hooks: 0,
    sessions: 0,
    messages: 0,
    user_messages: 0,
    assistant_messages: 0,
    autonomy_ratio: 0,
    delegation_level: 'manual',
    languages: [],
    ...fields,
  });

  it('one row per user per active day, users by id, days in order', async () => {
    const body = await get('users', { limit: 100 });
    expect(body.meta).toEqual({ org_id: a.orgId, start_date: '2026-09-28', end_date: '2026-10-01', has_more: false, next_cursor: null });
    const expected = {
      u1: [
        row('u1', '2026-09-28', {
          tool_calls: 3,
          billable_tokens: 2160,
          primary_model: 'claude-sonnet-4-5',
          primary_model_tier: 'standard',
          files_created: 1,
          files_edited: 1,
          git_commits: 1,
          mcp_calls: 1,
          sessions: 1,
          messages: 3,
          user_messages: 2,
          assistant_messages: 1,
          autonomy_ratio: 1.5,
          delegation_level: 'auto-high',
          languages: ['Markdown', 'TypeScript'],
        }),
        row('u1', '2026-09-30', {
          tool_calls: 2,
          billable_tokens: 1200,
          primary_model: 'claude-opus-4-1-thinking',
          primary_model_tier: 'thinking',
          sessions: 1,
          messages: 1,
          user_messages: 1,
          autonomy_ratio: 2,
          delegation_level: 'spec',
        }),
        // No session that day: the level of the latest earlier session (09-30, spec).
        row('u1', '2026-10-01', {
          tool_calls: 1,
          billable_tokens: 25,
          primary_model: 'claude-sonnet-4-5',
          primary_model_tier: 'standard',
          git_prs_created: 1,
          messages: 1,
          user_messages: 1,
          autonomy_ratio: 1,
          delegation_level: 'spec',
        }),
      ],
      u2: [
        row('u2', '2026-09-28', {
          tool_calls: 1,
          billable_tokens: 203,
          primary_model: 'gpt-5',
          primary_model_tier: 'standard',
          mcp_calls: 1,
          slash_commands: 1,
          sessions: 1,
          messages: 1,
          user_messages: 1,
          autonomy_ratio: 1,
          delegation_level: 'auto-medium',
        }),
        // gpt-5 and unknown-model tie at 50 credits: the smaller id wins.
        row('u2', '2026-09-30', {
          tool_calls: 1,
          billable_tokens: 100,
          primary_model: 'gpt-5',
          primary_model_tier: 'standard',
          messages: 2,
          user_messages: 2,
          autonomy_ratio: 0.5,
          delegation_level: 'auto-medium',
        }),
      ],
      u3: [
        // Latest earlier session: 09-15, before the range.
        row('u3', '2026-09-29', { tool_calls: 2, hooks: 1, autonomy_ratio: 2, delegation_level: 'spec' }),
        row('u3', '2026-09-30', { skill_calls: 2, files_created: 2, files_edited: 1, delegation_level: 'spec', languages: ['Python', 'Shell'] }),
        // Three sessions: auto-low twice, auto-medium once.
        row('u3', '2026-10-01', {
          tool_calls: 1,
          mcp_calls: 1,
          sessions: 3,
          messages: 2,
          user_messages: 1,
          assistant_messages: 1,
          autonomy_ratio: 1,
          delegation_level: 'auto-low',
        }),
      ],
    };
    const order = (['u1', 'u2', 'u3'] as const).slice().sort((x, y) => (u[x]!.id < u[y]!.id ? -1 : 1));
    expect(body.data).toEqual(order.flatMap((name) => expected[name]));
  });

  it('days before 2026-01-14 have no rows; later days of an empty range are zero rows', async () => {
    const early = await get('activity', { startDate: '2026-01-01', endDate: '2026-01-13' });
    expect(early.data).toEqual([]);
    expect(early.meta).toEqual({ org_id: a.orgId, start_date: '2026-01-01', end_date: '2026-01-13' });
    const edge = await get('productivity', { startDate: '2026-01-10', endDate: '2026-01-15' });
    expect(edge.data.map((r) => r.date)).toEqual(['2026-01-14', '2026-01-15']);
    expect(edge.data[0]).toEqual({
      date: '2026-01-14',
      files_created: 0,
      files_edited: 0,
      by_extension: [],
      by_language: [],
      git_commits: 0,
      git_prs_created: 0,
    });
    const tools = await get('tools', { startDate: '2026-01-14', endDate: '2026-01-14' });
    expect(tools.data[0]).toMatchObject({
      tool_calls: 0,
      autonomy_ratio_p90: 0,
      tool_autonomy_level_ratio: { auto_high: 0, auto_medium: 0, auto_low: 0, manual: 0 },
    });
    const activity = await get('activity', { startDate: '2026-01-14', endDate: '2026-01-14' });
    expect(activity.data[0]!.daily_active_users_by_client).toEqual({ 'terminal-ui': 0, web: 0, 'non-interactive-cli': 0 });
    expect((await get('users', { startDate: '2026-01-01', endDate: '2026-01-20' })).data).toEqual([]);
  });
});
