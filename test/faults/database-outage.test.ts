import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { migrate } from '../../src/core/db/migrate.js';
import { PostgresDb } from '../../src/core/db/postgres-engine.js';
import { OperatorIdentity } from '../../src/core/identity/operator.js';
import { IdentityService } from '../../src/core/identity/service.js';
import { decodeToPlain, encode, messages } from '../../src/otlp/proto.js';
import { tcpRelay, type TcpRelay } from '../helpers/tcp-relay.js';
import { createPostgresDatabase, onPostgres } from '../helpers/test-db.js';
import { metrics, sum, YESTERDAY } from '../otlp/otlp-json.js';

describe.skipIf(!onPostgres)('a PostgreSQL server that stops answering or refuses connections', () => {
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let db: PostgresDb;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let key: string;
  const proxy = { current: undefined as TcpRelay | undefined };

  beforeAll(async () => {
    created = await createPostgresDatabase();
    const direct = new PostgresDb({ url: created.url, poolSize: 1 });
    await migrate(direct);
    key = (
      await new OperatorIdentity({ db: direct, identity: new IdentityService({ db: direct }) }).createOrganization({
        name: 'outage',
        ownerEmail: 'o@outage.test',
      })
    ).apiKey;
    await direct.close();
    proxy.current = tcpRelay(new URL(created.url));
    db = new PostgresDb({ url: (await proxy.current.listen()).toString(), poolSize: 2, timeoutMs: 1000 });
    app = await buildApp(loadConfig({}, { logLevel: 'silent', authCacheTtlMs: 0, overloadMaxEventLoopDelayMs: 0 }), { db });
    await app.ready();
  });
  afterAll(async () => {
    proxy.current?.resume();
    await app?.close();
    await db?.close().catch(() => undefined);
    await proxy.current?.close();
    await created?.drop();
  });

  /** The request asked again every 200 ms, up to 10 s, until it is answered 200: the last status. */
  const statusOnceAnswered = async (request: () => Promise<{ statusCode: number }>) => {
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await request()).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    return status;
  };
  const call = () => app.inject({ method: 'GET', url: '/api/v0/organization/usage/limits/global', headers: { authorization: `Bearer ${key}` } });

  it('answers 503 with Retry-After within DATABASE_TIMEOUT_MS while the server is silent, and 200 once it answers again', async () => {
    expect((await call()).statusCode).toBe(200);
    proxy.current!.silence();
    const t0 = Date.now();
    const res = await call();
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(JSON.parse(res.body)).toMatchObject({ status: 503, title: 'Service Unavailable' });
    expect(Date.now() - t0).toBeLessThan(5000);
    proxy.current!.resume();
    expect(await statusOnceAnswered(call)).toBe(200);
  });

  it('answers 503 with Retry-After while connections are refused (a database that does not exist)', async () => {
    const gone = new URL(created.url);
    gone.pathname = '/orgctl_no_such_database';
    const missing = new PostgresDb({ url: gone.toString(), poolSize: 1, timeoutMs: 1000 });
    const other = await buildApp(loadConfig({}, { logLevel: 'silent', authCacheTtlMs: 0, overloadMaxEventLoopDelayMs: 0 }), { db: missing });
    try {
      const res = await other.inject({ method: 'GET', url: '/api/v0/me', headers: { authorization: `Bearer ${key}` } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await other.close();
      await missing.close();
    }
  });

  it('answers an OTLP export 503 with Retry-After (a google.rpc.Status in protobuf) while the server is silent; its retry counts once', async () => {
    // Credentials cached, as in a running service: the failure is the export's own write.
    const cached = await buildApp(loadConfig({}, { logLevel: 'silent', authCacheTtlMs: 1000, overloadMaxEventLoopDelayMs: 0 }), { db });
    try {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/x-protobuf' };
      const body = encode(
        messages.metricsRequest,
        metrics({ 'service.name': 'claude-code' }, [
          sum('claude_code.token.usage', [{ attrs: { 'session.id': 's', type: 'input', model: 'claude-sonnet-4-5' }, value: 4321 }]),
        ]) as never,
      );
      const send = () => cached.inject({ method: 'POST', url: '/v1/metrics', headers, payload: body });
      expect((await cached.inject({ method: 'GET', url: '/api/v0/me', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(200);
      proxy.current!.silence();
      const refused = await send();
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.headers['content-type']).toBe('application/x-protobuf');
      expect(decodeToPlain(messages.status, refused.rawPayload)).toMatchObject({ code: 14, message: expect.stringMatching(/try again/i) });
      proxy.current!.resume();
      // The exporter retries the same bytes once told to; until the pool has reconnected, 503 again.
      expect(await statusOnceAnswered(send)).toBe(200);
      expect((await send()).statusCode).toBe(200);
      const tokens = await cached.inject({
        method: 'GET',
        url: `/api/v1/analytics/tokens?startDate=${YESTERDAY}&endDate=${YESTERDAY}`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(JSON.parse(tokens.body).data[0]).toMatchObject({ input_tokens: 4321 });
    } finally {
      proxy.current!.resume();
      await cached.close();
    }
  });
});
