import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { logs, metrics, sum, YESTERDAY, YESTERDAY_MS } from './otlp-json.js';

/** A session's repository from OpenTelemetry's vcs.* attributes: on the record first, then on its resource (contract §19). */
let t: TestApp;
let org: Org;
beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('otlp-repo');
});
afterAll(() => t?.close());

const post = (signal: 'metrics' | 'logs', body: unknown) => t.request('POST', `/v1/${signal}`, { key: org.ownerKey, body });
const WEB = { 'service.name': 'claude-code', 'vcs.repository.url.full': 'https://token@github.com/Acme/Web.git', 'vcs.ref.head.name': 'main' };

describe('OTLP attribution to repositories', () => {
  it('takes the record before the resource, and either before a native event', async () => {
    const tokens = sum('claude_code.token.usage', [{ attrs: { 'session.id': 'k1', type: 'input', model: 'unknown-model' }, value: 100 }]);
    expect((await post('metrics', metrics(WEB, [tokens]))).status).toBe(200);
    const record = { 'session.id': 'k2', tool_name: 'Bash', success: 'false', 'vcs.repository.url.full': 'git@github.com:acme/api.git' };
    const tool = { name: 'claude_code.tool_result', attrs: record };
    const ok = { name: 'claude_code.tool_result', attrs: { ...record, success: 'true' } };
    expect((await post('logs', logs(WEB, [tool, ok]))).status).toBe(200);
    // A native event of session k1 names another repository: a worse source, so nothing moves.
    const native = {
      id: 'n1',
      type: 'git_commit',
      timestamp: YESTERDAY_MS,
      sessionId: 'k1',
      client: 'terminal-ui',
      userId: org.ownerId,
      repository: { url: 'https://github.com/acme/other' },
    };
    expect((await t.request('POST', '/api/v1/telemetry/events', { key: org.ownerKey, body: { events: [native] } })).status).toBe(202);
    const res = await t.request<{ data: Record<string, unknown>[] }>('GET', `/api/v1/analytics/repositories?startDate=${YESTERDAY}&endDate=${YESTERDAY}`, {
      key: org.ownerKey,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r) => [r.repository, r.billable_tokens, r.git_commits, r.tool_calls, r.tool_errors])).toEqual([
      ['github.com/acme/web', 100, 1, 0, 0],
      ['github.com/acme/api', 0, 0, 2, 1],
    ]);
  });
});
