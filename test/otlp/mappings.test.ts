import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { histogram, logs, metrics, spans, sum, YESTERDAY, YESTERDAY_MS } from './otlp-json.js';
import { yesterdayRow, type Row } from './reports.js';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(async () => {
  await t?.close();
});

const post = (org: Org, signal: 'metrics' | 'logs' | 'traces', body: unknown, key = org.ownerKey) => t.request(`POST`, `/v1/${signal}`, { key, body });
const day = (org: Org, report: 'tokens' | 'tools' | 'activity' | 'productivity', extra = '') => yesterdayRow(t, org, report, extra);
const users = async (org: Org) =>
  (await t.request<{ data: Row[] }>('GET', `/api/v1/analytics/users?startDate=${YESTERDAY}&endDate=${YESTERDAY}`, { key: org.ownerKey })).body.data;

const claude = { 'service.name': 'claude-code' };
const session = { 'session.id': 'sess-1', 'app.entrypoint': 'cli' };

describe('Claude Code', () => {
  it('claude_code.token.usage feeds tokens and credits by model, each type in its column', async () => {
    const org = await t.createOrg('cc-tokens');
    const res = await post(
      org,
      'metrics',
      metrics(claude, [
        sum('claude_code.token.usage', [
          { attrs: { ...session, type: 'input', model: 'claude-sonnet-4-5' }, value: 1000 },
          { attrs: { ...session, type: 'output', model: 'claude-sonnet-4-5' }, value: 200 },
          { attrs: { ...session, type: 'cacheRead', model: 'claude-sonnet-4-5' }, value: 5000 },
          { attrs: { ...session, type: 'cacheCreation', model: 'claude-sonnet-4-5' }, value: 300 },
        ]),
      ]),
    );
    expect(res).toMatchObject({ status: 200, body: {} });
    const tokens = await day(org, 'tokens');
    expect(tokens).toMatchObject({ input_tokens: 1000, output_tokens: 200, cache_read_tokens: 5000, cache_write_tokens: 300 });
    expect((tokens.by_model as Row[]).map((m) => m.model_id)).toEqual(['claude-sonnet-4-5']);
  });

  it('session.count feeds sessions (not agents_view starts); app.entrypoint sdk-* counts as non-interactive', async () => {
    const org = await t.createOrg('cc-sessions');
    await post(
      org,
      'metrics',
      metrics(claude, [
        sum('claude_code.session.count', [
          { attrs: { 'session.id': 'a', 'app.entrypoint': 'sdk-py' }, value: 1 },
          { attrs: { 'session.id': 'b', 'app.entrypoint': 'cli' }, value: 1 },
          { attrs: { 'session.id': 'c', start_type: 'agents_view' }, value: 1 },
        ]),
      ]),
    );
    const activity = await day(org, 'activity');
    expect(activity).toMatchObject({
      sessions: 2,
      daily_active_users: 1,
      daily_active_users_by_client: { 'terminal-ui': 1, web: 0, 'non-interactive-cli': 1 },
    });
  });

  it('user_prompt and assistant_response feed messages; command_name a slash command; the prompt is not kept', async () => {
    const org = await t.createOrg('cc-messages');
    const res = await post(
      org,
      'logs',
      logs(claude, [
        { name: 'claude_code.user_prompt', attrs: { ...session, prompt: 'SECRET-PROMPT-TEXT', prompt_length: 18 } },
        { name: 'claude_code.user_prompt', attrs: { ...session, command_name: '/review' } },
        { name: 'claude_code.assistant_response', attrs: { ...session, response: 'SECRET-RESPONSE' } },
      ]),
    );
    expect(res.status).toBe(200);
    expect(await day(org, 'activity')).toMatchObject({ messages: 3, user_messages: 2 });
    expect(await day(org, 'tools')).toMatchObject({ slash_commands_invocations: 1, slash_commands_by_name: [{ name: '/review', count: 1 }] });
    // Every table OTLP writes (and the events table, which it no longer writes): no row holds the content.
    for (const table of [
      'otlp_seen',
      'otlp_seen_groups',
      'otlp_streams',
      'analytics_user_day',
      'analytics_user_day_model',
      'analytics_day_counter',
      'analytics_day_version',
      'telemetry_events',
    ]) {
      const stored = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} AS r WHERE r::text LIKE '%SECRET%'`);
      expect(stored[0]?.n, table).toBe(0);
    }
    // The three events of one session and minute are one group's three keys (24 bytes each), not rows of otlp_seen.
    expect(await t.db.query(`SELECT octet_length(keys) AS bytes FROM otlp_seen_groups WHERE org_id = $1`, [org.orgId])).toEqual([{ bytes: 3 * 24 }]);
    expect(await t.db.query(`SELECT count(*)::int AS n FROM otlp_seen WHERE org_id = $1`, [org.orgId])).toEqual([{ n: 0 }]);
  });

  it('tool_result feeds tool calls by tool, MCP calls by server (from tool_parameters or the mcp__ prefix), and tool autonomy', async () => {
    const org = await t.createOrg('cc-tools');
    await post(
      org,
      'logs',
      logs(claude, [
        { name: 'claude_code.tool_result', attrs: { ...session, tool_name: 'Edit', decision_source: 'user_temporary' } },
        { name: 'claude_code.tool_result', attrs: { ...session, tool_name: 'Bash', decision_source: 'config' } },
        {
          name: 'claude_code.tool_result',
          attrs: {
            ...session,
            tool_name: 'mcp__github__create_issue',
            mcp_server_scope: 'user',
            tool_parameters: JSON.stringify({ mcp_server_name: 'github', body: 'SECRET' }),
          },
        },
        { name: 'claude_code.tool_result', attrs: { ...session, tool_name: 'mcp__linear__list', decision_source: 'hook' } },
      ]),
    );
    const tools = await day(org, 'tools');
    expect(tools).toMatchObject({ tool_calls: 4, mcp_users_with_mcp: 1 });
    expect(new Map((tools.by_tool as Row[]).map((x) => [x.tool, x.invocations]))).toEqual(
      new Map([
        ['Edit', 1],
        ['Bash', 1],
        ['mcp__github__create_issue', 1],
        ['mcp__linear__list', 1],
      ]),
    );
    expect(new Map((tools.mcp_by_server as Row[]).map((x) => [x.server, x.invocations]))).toEqual(
      new Map([
        ['github', 1],
        ['linear', 1],
      ]),
    );
    expect(tools.tool_autonomy_level_ratio).toMatchObject({ auto_low: 0.5, manual: 0.5 });
  });

  it('skill_activated feeds skills; hook_execution_complete feeds hooks (matcher after the colon, no command)', async () => {
    const org = await t.createOrg('cc-skills');
    await post(
      org,
      'logs',
      logs(claude, [
        { name: 'claude_code.skill_activated', attrs: { ...session, 'skill.name': 'pdf' } },
        { name: 'claude_code.hook_execution_complete', attrs: { ...session, hook_event: 'PostToolUse', hook_name: 'PostToolUse:Write' } },
      ]),
    );
    const tools = await day(org, 'tools');
    expect(tools).toMatchObject({
      skills_invocations: 1,
      skills_by_name: [{ name: 'pdf', count: 1 }],
      hooks_invocations: 1,
      hooks_by_event: [{ event: 'PostToolUse', matcher: 'Write', command: '', count: 1 }],
    });
  });

  it('code_edit_tool.decision accept feeds files created (Write) and edited (Edit, NotebookEdit) with language; commit and pull request counts', async () => {
    const org = await t.createOrg('cc-files');
    await post(
      org,
      'metrics',
      metrics(claude, [
        sum('claude_code.code_edit_tool.decision', [
          { attrs: { ...session, tool_name: 'Write', decision: 'accept', language: 'TypeScript' }, value: 2 },
          { attrs: { ...session, tool_name: 'Edit', decision: 'accept', language: 'Python' }, value: 3 },
          { attrs: { ...session, tool_name: 'Edit', decision: 'reject', language: 'Python' }, value: 4 },
        ]),
        sum('claude_code.commit.count', [{ attrs: session, value: 2 }]),
        sum('claude_code.pull_request.count', [{ attrs: session, value: 1 }]),
      ]),
    );
    const p = await day(org, 'productivity');
    expect(p).toMatchObject({ files_created: 2, files_edited: 3, git_commits: 2, git_prs_created: 1 });
    expect(new Map((p.by_language as Row[]).map((x) => [x.language, x.count]))).toEqual(
      new Map([
        ['TypeScript', 2],
        ['Python', 3],
      ]),
    );
  });
});

describe('Droid', () => {
  it('droid.* metrics feed tools, MCP, skills, slash commands, hooks, files edited, commits and PRs; sessions are distinct session.id per day', async () => {
    const org = await t.createOrg('droid');
    const s = { 'session.id': 'd-1' };
    await post(
      org,
      'metrics',
      metrics({ 'service.name': 'droid' }, [
        sum('droid.tool.invocations', [{ attrs: { ...s, 'tool.name': 'Read' }, value: 3 }], { asInt: true }),
        sum('droid.mcp.tool_invocations', [{ attrs: { ...s, 'mcp.server': 'sentry' }, value: 2 }], { asInt: true }),
        sum('droid.skill.invocations', [{ attrs: { ...s, 'skill.name': 'deploy' }, value: 1 }]),
        sum('droid.slash_command.invocations', [{ attrs: { ...s, 'command.name': '/spec' }, value: 1 }]),
        sum('droid.hook.invocations', [{ attrs: { ...s, 'hook.event': 'Stop' }, value: 1 }]),
        sum('droid.code.files_modified', [{ attrs: s, value: 4 }]),
        sum('droid.git.commits', [{ attrs: s, value: 1 }]),
        sum('droid.git.pull_requests', [{ attrs: { 'session.id': 'd-2' }, value: 1 }]),
      ]),
    );
    await post(
      org,
      'traces',
      spans({ 'service.name': 'droid' }, [
        { name: 'droid.message.user', attrs: s },
        { name: 'droid.message.assistant', attrs: s },
        { name: 'droid.other', attrs: s },
      ]),
    );
    expect(await day(org, 'tools')).toMatchObject({
      tool_calls: 5,
      mcp_by_server: [{ server: 'sentry', invocations: 2 }],
      skills_invocations: 1,
      slash_commands_invocations: 1,
      hooks_invocations: 1,
    });
    expect(await day(org, 'productivity')).toMatchObject({ files_edited: 4, files_created: 0, git_commits: 1, git_prs_created: 1 });
    expect(await day(org, 'activity')).toMatchObject({ sessions: 2, messages: 2, user_messages: 1 });
  });
});

describe('Codex', () => {
  it('codex.* log events feed tokens (input without the cached part), sessions with delegation, prompts and tool calls; codex_exec is non-interactive', async () => {
    const org = await t.createOrg('codex');
    const c = { 'conversation.id': 'conv-1', originator: 'codex_exec' };
    const res = await post(
      org,
      'logs',
      logs({ 'service.name': 'codex_exec' }, [
        { name: 'codex.conversation_starts', attrs: { ...c, approval_policy: 'never', model: 'gpt-5-codex' } },
        { name: 'codex.user_prompt', attrs: { ...c, prompt: 'SECRET' } },
        {
          name: 'codex.sse_event',
          attrs: { ...c, 'event.kind': 'response.completed', model: 'gpt-5-codex', input_token_count: 1200, cached_token_count: 1000, output_token_count: 50 },
        },
        { name: 'codex.sse_event', attrs: { ...c, 'event.kind': 'response.output_item.done' } },
        { name: 'codex.tool_result', attrs: { ...c, tool_name: 'shell', call_id: 'call-1', arguments: 'SECRET' } },
        { name: 'codex.tool_result', attrs: { ...c, tool_name: 'search', mcp_server: 'docs', call_id: 'call-2' } },
      ]),
    );
    expect(res.status).toBe(200);
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 200, cache_read_tokens: 1000, output_tokens: 50 });
    expect(await day(org, 'activity')).toMatchObject({
      sessions: 1,
      user_messages: 1,
      daily_active_users_by_client: { 'non-interactive-cli': 1, 'terminal-ui': 0 },
    });
    expect(await day(org, 'tools')).toMatchObject({ tool_calls: 2, mcp_by_server: [{ server: 'docs', invocations: 1 }] });
    const [row] = await users(org);
    expect(row).toMatchObject({ delegation_level: 'auto-high', sessions: 1 });
  });
});

describe('generic sources', () => {
  it('gen_ai.client.token.usage (histogram sums) and gemini_cli.* metrics feed tokens, tools and files', async () => {
    const org = await t.createOrg('generic');
    await post(
      org,
      'metrics',
      // A GenAI client of no known vendor (Gemini CLI's own gen_ai.* tokens are not counted: agent-records.test.ts).
      metrics({ 'service.name': 'genai-agent' }, [
        histogram('gen_ai.client.token.usage', [
          { attrs: { 'gen_ai.token.type': 'input', 'gen_ai.request.model': 'gemini-2.5-pro' }, sum: 700, count: 3 },
          { attrs: { 'gen_ai.token.type': 'output', 'gen_ai.request.model': 'gemini-2.5-pro' }, sum: 90, count: 3 },
        ]),
        sum('gemini_cli.tool.call.count', [{ attrs: { function_name: 'read_file' }, value: 2 }], { asInt: true }),
        sum(
          'gemini_cli.file.operation.count',
          [
            { attrs: { operation: 'create', extension: '.go', programming_language: 'Go' }, value: 1 },
            { attrs: { operation: 'read', extension: '.go' }, value: 5 },
          ],
          { asInt: true },
        ),
      ]),
    );
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 700, output_tokens: 90 });
    expect(await day(org, 'tools')).toMatchObject({ tool_calls: 2, by_tool: [{ tool: 'read_file', invocations: 2 }] });
    expect(await day(org, 'productivity')).toMatchObject({
      files_created: 1,
      by_language: [{ language: 'Go', count: 1 }],
      by_extension: [{ extension: 'go', count: 1 }],
    });
  });
});

describe('the same activity as native events', () => {
  it('gives identical analytics rows', async () => {
    const viaOtlp = await t.createOrg('same-otlp');
    const native = await t.createOrg('same-native');
    const s = { 'session.id': 'same-1', 'app.entrypoint': 'cli' };
    await post(
      viaOtlp,
      'metrics',
      metrics(claude, [
        sum('claude_code.session.count', [{ attrs: s, value: 1 }]),
        sum('claude_code.token.usage', [
          { attrs: { ...s, type: 'input', model: 'claude-opus-4-1' }, value: 4000 },
          { attrs: { ...s, type: 'output', model: 'claude-opus-4-1' }, value: 900 },
        ]),
        sum('claude_code.commit.count', [{ attrs: s, value: 1 }]),
      ]),
    );
    await post(
      viaOtlp,
      'logs',
      logs(claude, [
        { name: 'claude_code.user_prompt', attrs: s },
        { name: 'claude_code.assistant_response', attrs: s },
        { name: 'claude_code.tool_result', attrs: { ...s, tool_name: 'Read', decision_source: 'config' } },
        { name: 'claude_code.skill_activated', attrs: { ...s, 'skill.name': 'pdf' } },
      ]),
    );
    const at = new Date(YESTERDAY_MS).toISOString();
    const base = { timestamp: at, sessionId: 'same-1', client: 'terminal-ui' };
    const res = await t.request('POST', '/api/v1/telemetry/events', {
      key: native.ownerKey,
      body: {
        events: [
          { id: 'n1', type: 'session_start', delegationLevel: 'auto-low', ...base },
          {
            id: 'n2',
            type: 'model_request',
            model: 'claude-opus-4-1',
            tier: 'standard',
            inputTokens: 4000,
            outputTokens: 0,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
            ...base,
          },
          {
            id: 'n3',
            type: 'model_request',
            model: 'claude-opus-4-1',
            tier: 'standard',
            inputTokens: 0,
            outputTokens: 900,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
            ...base,
          },
          { id: 'n4', type: 'git_commit', ...base },
          { id: 'n5', type: 'message', role: 'user', ...base },
          { id: 'n6', type: 'message', role: 'assistant', ...base },
          { id: 'n7', type: 'tool_call', tool: 'Read', autonomyLevel: 'auto-low', ...base },
          { id: 'n8', type: 'skill', name: 'pdf', ...base },
        ],
      },
    });
    expect(res.status).toBe(202);
    const strip = (row: Row) => JSON.parse(JSON.stringify(row).replaceAll(/"user_id":"[^"]+"|"user_email":"[^"]+"/g, '"x":0')) as Row;
    for (const report of ['tokens', 'tools', 'activity', 'productivity'] as const) {
      expect(strip(await day(viaOtlp, report))).toEqual(strip(await day(native, report)));
    }
    expect((await users(viaOtlp)).map(strip)).toEqual((await users(native)).map(strip));
  });
});
