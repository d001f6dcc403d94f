import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, errorCodesTable, withErrorCodesTable } from '../../src/core/http/error-codes.js';
import { AppError, INTERNAL_DETAIL } from '../../src/core/http/errors.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

describe('docs/errors.md', () => {
  it('lists every error code exactly as the catalogue has it (run `npm run docs` after changing it)', () => {
    const page = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    expect(withErrorCodesTable(page)).toBe(page);
    for (const [code, e] of Object.entries(ERROR_CODES)) expect(errorCodesTable()).toContain(`| \`${code}\` | ${e.status} |`);
  });
});

describe('metadata.code on the wire', () => {
  let t: TestApp;
  let org: Org;
  beforeAll(async () => {
    t = await TestApp.start({}, {}, (app) => {
      app.get('/test/thrown', async () => {
        throw new Error('key vanished after insert');
      });
      app.get('/test/internal-app-error', async () => {
        throw new AppError('internal', 'a message that must stay in the log', { cause: new Error('root cause') });
      });
    });
    org = await t.createOrg('codes-org');
  });
  afterAll(() => t?.close());

  it.each([
    ['GET', '/api/v0/computers/00000000-0000-4000-8000-000000000000', 404, 'computer_not_found'],
    ['GET', '/api/v0/no-such-route', 404, 'route_not_found'],
    ['DELETE', '/api/v0/me', 405, 'method_not_allowed'],
  ] as const)('%s %s answers %i %s', async (method, url, status, code) => {
    const res = await t.request(method, url, { key: org.ownerKey });
    expect(expectErrorObject(res, status).metadata).toMatchObject({ code });
  });

  it('a missing credential is unauthenticated; a bad body is validation_failed with its errors', async () => {
    expect(expectErrorObject(await t.request('GET', '/api/v0/me'), 401).metadata).toEqual({ code: 'unauthenticated' });
    const bad = await t.request('POST', '/api/v0/computers', { key: org.ownerKey, body: { name: 7 } });
    expect(expectErrorObject(bad, 400).metadata).toMatchObject({ code: 'validation_failed', errors: expect.any(Array) });
  });

  it('a 500 carries the fixed sentence and code internal, never the internal message', async () => {
    for (const url of ['/test/thrown', '/test/internal-app-error']) {
      const res = await t.request('GET', url);
      expect(expectErrorObject(res, 500)).toMatchObject({ detail: INTERNAL_DETAIL, metadata: { code: 'internal' } });
      expect(res.raw).not.toMatch(/vanished|must stay|root cause/);
    }
  });
});
