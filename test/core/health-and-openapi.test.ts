import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/core/http/openapi.js';
import { expectErrorObject, TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t?.close());

describe('health', () => {
  it('/healthz and /readyz answer without a credential', async () => {
    expect((await t.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await t.request('GET', '/readyz')).body).toEqual({ status: 'ok', database: t.db.engine });
  });

  it('/readyz is 503 with the error object when the database is unreachable', async () => {
    const other = await TestApp.start();
    await other.testDb.drop();
    const res = await other.request('GET', '/readyz');
    expect(expectErrorObject(res, 503).detail).toBe('The database is not reachable.');
    expect((await other.request('GET', '/healthz')).status).toBe(200);
    await other.app.close();
  });
});

describe('OpenAPI', () => {
  it('is served at /openapi.json with version 0.1.0 and every API route', async () => {
    const res = await t.request<{ openapi: string; info: { version: string }; paths: Record<string, Record<string, { operationId: string }>> }>(
      'GET',
      '/openapi.json',
    );
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('0.1.0');
    expect(res.body.paths['/api/v0/organization/usage/limits/global']?.put?.operationId).toBe('limits.setGlobal');
    for (const [path, methods] of Object.entries(res.body.paths)) {
      for (const [method, op] of Object.entries(methods)) expect(op.operationId, `${method} ${path}`).toMatch(/^[a-zA-Z]+\.[a-zA-Z]+$/);
    }
  });

  it('the committed openapi.json matches the routes (run `npm run openapi` after changing a schema)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
    expect(openApiDocument(t.app)).toEqual(committed);
  });

  it('/docs serves the browsable description from the installed package', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
    expect(res.body).not.toMatch(/https?:\/\/(cdn|unpkg)/);
    expect(res.body).toContain('<title>orgctl API</title>');
    // The page's logo is orgctl's name, set by the initializer script.
    const script = (await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' })).body;
    const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(script)?.[1];
    expect(Buffer.from(logo ?? '', 'base64').toString()).toContain('>orgctl</text>');
  });

  it('names its license and a server, and describes every response by more than "Default Response"', () => {
    const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
      info: { license: { name: string } };
      servers: { url: string }[];
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    expect(doc.info.license.name).toBe('Apache-2.0');
    expect(doc.servers[0]?.url).toBe('/');
    const descriptions = Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => Object.values(op.responses).map((r) => r.description)));
    expect(descriptions.length).toBeGreaterThan(100);
    expect(descriptions).not.toContain('Default Response');
  });
});
