import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp } from '../helpers/test-app.js';
import { logs, metrics, sum, YESTERDAY } from './otlp-json.js';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(async () => {
  await t?.close();
});

const LINKS = '/api/v0/organization/account-links';

describe('account links', () => {
  it('owners and managers link, list and remove account ids; members may not; an unknown user is 404', async () => {
    const org = await t.createOrg('links');
    const member = await t.addUser(org, 'member');
    const put = await t.request('PUT', LINKS, { key: org.ownerKey, body: { email: member.email.toUpperCase(), accountId: 'acct-1' } });
    expect(put).toMatchObject({ status: 200, body: { accountId: 'acct-1', userId: member.id, email: member.email } });
    expectErrorObject(await t.request('PUT', LINKS, { key: member.key, body: { email: member.email, accountId: 'acct-2' } }), 403);
    expectErrorObject(await t.request('PUT', LINKS, { key: org.ownerKey, body: { email: 'ghost@links.test', accountId: 'acct-3' } }), 404);
    const list = await t.request<{ links: { accountId: string; email: string }[] }>('GET', LINKS, { key: org.ownerKey });
    expect(list.body.links).toEqual([expect.objectContaining({ accountId: 'acct-1', email: member.email })]);
    expect((await t.request('DELETE', `${LINKS}/acct-1`, { key: org.ownerKey })).status).toBe(204);
    expectErrorObject(await t.request('DELETE', `${LINKS}/acct-1`, { key: org.ownerKey }), 404);
  });

  it("an organization-wide key attributes by a linked account id (user.account_uuid, Droid's user.id) but never by Claude Code's user.id", async () => {
    const org = await t.createOrg('links-otlp');
    const dev = await t.addUser(org, 'member');
    await t.request('PUT', LINKS, { key: org.ownerKey, body: { email: dev.email, accountId: 'droid-user-9' } });
    await t.request('PUT', LINKS, { key: org.ownerKey, body: { email: dev.email, accountId: 'anthropic-uuid-9' } });
    const droid = await t.request('POST', '/v1/metrics', {
      key: org.ownerKey,
      body: metrics({ 'service.name': 'droid', 'user.id': 'droid-user-9' }, [sum('droid.git.commits', [{ attrs: { 'session.id': 'd' }, value: 2 }])]),
    });
    expect(droid).toMatchObject({ status: 200, body: {} });
    const claude = { 'service.name': 'claude-code' };
    const res = await t.request('POST', '/v1/logs', {
      key: org.ownerKey,
      body: logs(claude, [
        { name: 'claude_code.user_prompt', attrs: { 'session.id': 'c', 'user.account_uuid': 'anthropic-uuid-9' } },
        { name: 'claude_code.user_prompt', attrs: { 'session.id': 'c', 'user.id': 'droid-user-9' } },
        { name: 'claude_code.user_prompt', attrs: { 'session.id': 'c', 'user.account_uuid': 'not-linked' } },
      ]),
    });
    expect(res.body).toEqual({ partialSuccess: { rejectedLogRecords: 1, errorMessage: expect.stringContaining('account not-linked is linked to no user') } });
    const rows = (
      await t.request<{ data: Record<string, unknown>[] }>('GET', `/api/v1/analytics/users?startDate=${YESTERDAY}&endDate=${YESTERDAY}`, { key: org.ownerKey })
    ).body.data;
    const byEmail = new Map(rows.map((r) => [r.user_email, r]));
    expect(byEmail.get(dev.email)).toMatchObject({ git_commits: 2, user_messages: 1 });
    // Claude Code's user.id is an installation id: that record stays the caller's.
    expect(byEmail.get('owner@links-otlp.test')).toMatchObject({ user_messages: 1 });
  });
});
