import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { TestApp, type Org } from '../helpers/test-app.js';
import { createEndpoint } from '../webhooks/api.js';
import { Receiver } from '../webhooks/receiver.js';

/*
 * A secret written into a repository URL in any form git or an exporter uses (scp-like with a
 * token as the user or a password, a bare host/path, a query or fragment) is kept nowhere: not in
 * what the API answers, not in what a webhook sends, not in the rows behind them.
 */
const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = Date.parse('2026-03-09T12:00:00Z');
let t: TestApp;
let org: Org;
let receiver: Receiver;

beforeAll(async () => {
  // Private networks allowed: the webhook receiver listens on loopback.
  t = await TestApp.start({ ciAllowPrivateNetwork: true }, { clock: new TestClock(NOW) });
  org = await t.createOrg('repo-url-secrets');
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const get = async (url: string, key = org.ownerKey) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
};
const rows = async (sql: string) => JSON.stringify(await t.db.query(sql, []));

const FORMS = [
  ['a token as the scp-like user', 'SECRET-r1@git.acme.io:team/api.git', 'git.acme.io:team/api.git'],
  ['a user and password, scp-like', 'deploy:SECRET-r2@git.acme.io:team/api.git', 'git.acme.io:team/api.git'],
  ['a query after the scp-like git@', 'git@git.acme.io:team/api.git?token=SECRET-r3', 'git@git.acme.io:team/api.git'],
  ['a query on a bare host/path', 'git.acme.io/team/api?token=SECRET-r4', 'git.acme.io/team/api'],
  ['a token as the user of a bare host/path', 'SECRET-r5@git.acme.io/team/api', 'git.acme.io/team/api'],
  ['a fragment on a bare host/path', 'git.acme.io/team/api#SECRET-r6', 'git.acme.io/team/api'],
  ['an ssh user name other than git', 'ssh://SECRET-r7@git.acme.io/team/api', 'ssh://git.acme.io/team/api'],
] as const;
const secretOf = (url: string) => /SECRET-r\d/.exec(url)![0];

describe('a secret in a repository URL, in any form, is kept nowhere', () => {
  it.each(FORMS)('readiness report with %s: the upload, the lists, the summary and the webhook leave it out', async (_what, repoUrl, kept) => {
    const secret = secretOf(repoUrl);
    const endpoint = await createEndpoint(t, org.ownerKey, { url: receiver.url, eventTypes: ['readiness.report_created'] });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/organization/maturity-level-reports',
      headers: { authorization: `Bearer ${org.ownerKey}` },
      payload: { repoUrl, apps: {}, report: { lint_config: { numerator: 1, denominator: 1, rationale: 'lints' } } },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ repoUrl: kept, repoId: 'git.acme.io/team/api' });
    expect(res.body).not.toContain(secret);
    const guest = await t.addUser(org, 'guest');
    expect(await get('/api/organization/maturity-level-reports?repoId=git.acme.io/team/api', guest.key)).not.toContain(secret);
    expect(await get('/api/organization/agent-readiness-summary', guest.key)).not.toContain(secret);
    expect(await rows('SELECT repo_id, repo_url, report::text FROM readiness_reports')).not.toContain(secret);

    receiver.received.length = 0;
    await t.services.deliveries.tick();
    expect(receiver.received.map((r) => JSON.parse(r.body) as { data: { repoUrl: string } }).map((b) => b.data.repoUrl)).toEqual([kept]);
    expect(JSON.stringify(receiver.received)).not.toContain(secret);
    expect((await t.request('DELETE', `/api/v0/organization/webhooks/${endpoint.id}`, { key: org.ownerKey })).status).toBe(204);
  });

  it.each(FORMS)('telemetry with %s: the repository reports and the stored attribution leave it out', async (_what, url) => {
    const secret = secretOf(url);
    const session = `s-${secret}`;
    // The SessionStart record of one session, a native event's repository for another.
    const put = await t.request('PUT', `/api/v1/telemetry/sessions/${session}-a/repository`, { key: org.ownerKey, body: { url, branch: 'main' } });
    expect(put.status, put.raw).toBe(204);
    const ingest = await t.request('POST', '/api/v1/telemetry/events', {
      key: org.ownerKey,
      body: {
        events: [
          {
            id: `${session}-1`,
            type: 'session_start',
            timestamp: DAY,
            sessionId: `${session}-b`,
            client: 'terminal-ui',
            delegationLevel: 'manual',
            repository: { url },
          },
          { id: `${session}-2`, type: 'tool_call', timestamp: DAY, sessionId: `${session}-a`, client: 'terminal-ui', tool: 'Bash', autonomyLevel: 'manual' },
        ],
      },
    });
    expect(ingest.status, ingest.raw).toBe(202);
    const range = 'startDate=2026-03-09&endDate=2026-03-09';
    const repos = await get(`/api/v1/analytics/repositories?${range}`);
    expect(repos).toContain('git.acme.io/team/api');
    expect(repos).not.toContain(secret);
    expect(await get(`/api/v1/analytics/activity?${range}&group_by=repository`)).not.toContain(secret);
    expect(await rows('SELECT repo_id, repo_url FROM analytics_session_repo')).not.toContain(secret);
    expect(await rows('SELECT repo_id FROM analytics_repo_day')).not.toContain(secret);
  });

  it('computers keep their repositories without a secret in any form, and still with the git login an ssh clone needs', async () => {
    const repos = FORMS.filter(([, url]) => !url.startsWith('git.acme.io/') && !url.includes('@git.acme.io/')).map(([, url]) => url);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v0/computers',
      headers: { authorization: `Bearer ${org.ownerKey}` },
      payload: { name: 'box', repos },
    });
    expect(res.statusCode, res.body).toBe(201);
    const listed = await get('/api/v0/computers');
    for (const url of repos) {
      expect(res.body).not.toContain(secretOf(url));
      expect(listed).not.toContain(secretOf(url));
    }
    const [stored] = await t.db.query<{ repos: string[] }>(`SELECT repos FROM computers WHERE id = $1`, [res.json<{ id: string }>().id]);
    expect(stored!.repos).toEqual(FORMS.filter(([, url]) => repos.includes(url)).map(([, , kept]) => kept));
  });
});
