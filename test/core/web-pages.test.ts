import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp } from '../helpers/test-app.js';

// The pages `npm run build` made (the suite's pretest builds when the sources changed).
const webRoot = fileURLToPath(new URL('../../dist/web/', import.meta.url));

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({}, { webRoot });
});
afterAll(() => t?.close());

describe.skipIf(!existsSync(`${webRoot}index.html`))('the web app at /', () => {
  it('answers a deep link that accepts HTML with index.html, under a strict CSP', async () => {
    const res = await t.request('GET', '/settings/members', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.raw).toContain('<div id="root"></div>');
    expect(res.raw).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'; script-src 'self';/);
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves the hashed assets for a year', async () => {
    const index = await t.request('GET', '/', { headers: { accept: 'text/html' } });
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index.raw)![1]!;
    const res = await t.request('GET', asset);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps the JSON error object for unknown API paths, other methods, and clients that do not ask for HTML', async () => {
    expectErrorObject(await t.request('GET', '/api/v0/nothing-here', { headers: { accept: 'text/html' } }), 404);
    expectErrorObject(await t.request('GET', '/settings/members', { headers: { accept: 'application/json' } }), 404);
    expectErrorObject(await t.request('POST', '/settings/members', { headers: { accept: 'text/html' }, body: {} }), 404);
    expectErrorObject(await t.request('GET', '/v1/metrics', { headers: { accept: 'text/html' } }), 405);
  });
});
