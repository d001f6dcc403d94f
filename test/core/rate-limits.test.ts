import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PER_MINUTE, SIGN_IN_PER_MINUTE } from '../../src/core/http/rate-limit-plans.js';
import { decodeToPlain, encode, messages } from '../../src/otlp/proto.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { onPostgres } from '../helpers/test-db.js';
import { logs } from '../otlp/otlp-json.js';

let t: TestApp;

beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t?.close());

const onPlan = async (name: string, plan: 'free' | 'team' | 'enterprise'): Promise<Org> => {
  const org = await t.createOrg(name);
  await t.operatorIdentity.setPlan(org.orgId, plan);
  return org;
};

describe('rate limits by plan', () => {
  it('every limited response says its policy and what is left (RateLimit-Policy, RateLimit); health routes are not limited', async () => {
    const org = await onPlan('headers-org', 'team');
    const res = await t.request('GET', '/api/v0/me', { key: org.ownerKey });
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-policy']).toBe(`"read";q=${PER_MINUTE.team.read};w=60`);
    expect(res.headers['ratelimit']).toMatch(new RegExp(`^"read";r=${PER_MINUTE.team.read - 1};t=\\d+$`));
    const write = await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: org.ownerKey, body: { limit: 2_000_000 } });
    expect(write.headers['ratelimit-policy']).toBe(`"write";q=${PER_MINUTE.team.write};w=60`);
    const ingest = await t.request('POST', '/api/v1/telemetry/events', {
      key: org.ownerKey,
      body: { events: [{ id: 'h1', type: 'git_commit', timestamp: '2026-10-01T10:00:00Z', sessionId: 's', client: 'web' }] },
    });
    expect(ingest.headers['ratelimit-policy']).toBe(`"ingest";q=${PER_MINUTE.team.ingest};w=60`);
    const analytics = await t.request('GET', '/api/v1/analytics/activity?startDate=2026-10-01&endDate=2026-10-01', { key: org.ownerKey });
    expect(analytics.headers['ratelimit-policy']).toBe(`"analytics";q=${PER_MINUTE.team.analytics};w=60`);
    expect((await t.request('GET', '/healthz')).headers['ratelimit-policy']).toBeUndefined();
  });

  it("past the free plan's writes a minute: 429 with Retry-After and the error object; another principal is not affected", async () => {
    const org = await onPlan('free-org', 'free');
    const other = await t.addUser(org, 'manager');
    const put = (key: string) => t.request('PUT', '/api/v0/organization/usage/limits/global', { key, body: { limit: 2_000_000 } });
    for (let i = 0; i < PER_MINUTE.free.write; i++) expect((await put(org.ownerKey)).status).toBe(200);
    const limited = await put(org.ownerKey);
    const err = expectErrorObject(limited, 429);
    expect(err.detail).toContain(`${PER_MINUTE.free.write} write requests a minute`);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['ratelimit']).toMatch(/^"write";r=0;t=\d+$/);
    // Reads have their own budget, and so has every other principal.
    expect((await t.request('GET', '/api/v0/me', { key: org.ownerKey })).status).toBe(200);
    expect((await put(other.key)).status).toBe(200);
  });

  it('the public steps of single sign-on are counted per address, though they need no credential', async () => {
    const start = () => t.request('GET', '/api/v0/sso/start?email=someone@nowhere.test');
    for (let i = 0; i < SIGN_IN_PER_MINUTE; i++) expect((await start()).status).toBe(302);
    expect(expectErrorObject(await start(), 429).detail).toContain(`${SIGN_IN_PER_MINUTE} sign-in requests a minute for this address`);
    // The callback spends the same budget; another address has its own.
    expect((await t.app.inject({ method: 'GET', url: '/api/v0/sso/callback?state=x&code=y' })).statusCode).toBe(429);
    expect((await t.app.inject({ method: 'GET', url: '/api/v0/sso/start?email=someone@nowhere.test', remoteAddress: '192.0.2.7' })).statusCode).toBe(302);
  });

  it.skipIf(!onPostgres)('two processes on one PostgreSQL count together', async () => {
    const org = await onPlan('shared-org', 'free');
    const second = await t.otherProcess();
    try {
      const put = (i: number) =>
        i % 2 === 0
          ? t.request('PUT', '/api/v0/organization/usage/limits/global', { key: org.ownerKey, body: { limit: 2_000_000 } })
          : second
              .inject({
                method: 'PUT',
                url: '/api/v0/organization/usage/limits/global',
                headers: { authorization: `Bearer ${org.ownerKey}`, 'content-type': 'application/json' },
                payload: { limit: 2_000_000 },
              })
              .then((r) => ({ status: r.statusCode }));
      const statuses: number[] = [];
      for (let i = 0; i <= PER_MINUTE.free.write; i++) statuses.push((await put(i)).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(PER_MINUTE.free.write);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('overload', () => {
  it('while the event loop lags past OVERLOAD_MAX_EVENT_LOOP_DELAY_MS, API requests and OTLP exports get 503 with Retry-After; /healthz still answers', async () => {
    const own = await TestApp.start({ overloadMaxEventLoopDelayMs: 40 });
    try {
      const org = await own.createOrg('busy-org');
      const exportBody = encode(
        messages.logsRequest,
        logs({ 'service.name': 'claude-code' }, [{ name: 'claude_code.user_prompt', attrs: { 'session.id': 's' } }]) as never,
      );
      // Block the loop again and again, as a stalled process would, then ask while it is measured as lagging.
      const stall = setInterval(() => {
        const until = Date.now() + 150;
        while (Date.now() < until);
      }, 10);
      let shed: Awaited<ReturnType<typeof own.request>> | undefined;
      let shedExport: Awaited<ReturnType<typeof own.app.inject>> | undefined;
      try {
        for (let i = 0; i < 100 && !(shed && shedExport); i++) {
          const res = await own.request('GET', '/api/v0/me', { key: org.ownerKey });
          if (res.status === 503) shed ??= res;
          // An agent's OTLP export is shed alike, answered in its own encoding.
          const exported = await own.app.inject({
            method: 'POST',
            url: '/v1/logs',
            headers: { authorization: `Bearer ${org.ownerKey}`, 'content-type': 'application/x-protobuf' },
            payload: exportBody,
          });
          if (exported.statusCode === 503) shedExport ??= exported;
          await new Promise((r) => setTimeout(r, 20));
        }
        expect((await own.request('GET', '/healthz')).status).toBe(200);
      } finally {
        clearInterval(stall);
      }
      expect(shed, 'a request shed while the loop lagged').toBeDefined();
      expectErrorObject(shed!, 503);
      expect(shed!.headers['retry-after']).toBe('2');
      expect(shedExport, 'an export shed while the loop lagged').toBeDefined();
      expect(shedExport!.headers['retry-after']).toBe('2');
      expect(shedExport!.headers['content-type']).toBe('application/x-protobuf');
      expect(decodeToPlain(messages.status, shedExport!.rawPayload)).toMatchObject({ code: 14, message: expect.stringMatching(/overloaded/) });
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await own.request('GET', '/api/v0/me', { key: org.ownerKey })).status;
      }
      expect(status).toBe(200);
    } finally {
      await own.close();
    }
  });
});
