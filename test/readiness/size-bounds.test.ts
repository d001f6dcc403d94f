import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_MAX_BYTES, REPORT_MAX_BYTES } from '../../src/readiness/schemas.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const PATH = '/api/organization/maturity-level-reports';
let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('readiness-sizes');
});
afterAll(() => t?.close());

/** A report of about `kb` kilobytes: criteria with long rationales. */
const report = (kb: number, repo = 'https://github.com/acme/big') => ({
  repoUrl: repo,
  apps: { '.': { description: 'root' } },
  report: Object.fromEntries(
    Array.from({ length: Math.ceil(kb / 18) }, (_, i) => [`criterion_${i}`, { numerator: 1, denominator: 1, rationale: 'r'.repeat(18_000) }]),
  ),
  commitHash: 'abc',
  branch: 'main',
  hasLocalChanges: false,
  hasNonRemoteCommits: false,
  modelUsed: { id: 'm', reasoningEffort: 'low' },
  droidVersion: '1',
});

describe('readiness report sizes', () => {
  it(`refuses a report over ${REPORT_MAX_BYTES / 1024} KiB with 413 and the error object`, async () => {
    const body = report(REPORT_MAX_BYTES / 1024 + 20);
    expect(JSON.stringify(body).length).toBeGreaterThan(REPORT_MAX_BYTES);
    expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body }), 413);
  });

  it(`ends a page once it holds ${PAGE_MAX_BYTES / 1024 / 1024} MiB of reports; paging on returns the rest, none twice`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.request<{ reportId: string }>('POST', PATH, { key: org.ownerKey, body: report(450) });
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
      ids.push(res.body.reportId);
    }
    const page = async (after?: string) =>
      (
        await t.request<{ reports: { reportId: string }[] }>('GET', `${PATH}?limit=100${after ? `&startAfter=${after}` : ''}`, { key: org.ownerKey })
      ).body.reports.map((r) => r.reportId);
    const first = await page();
    expect(first.length).toBeGreaterThan(1);
    expect(first.length).toBeLessThan(12);
    const seen = [...first];
    for (let next = await page(seen.at(-1)); next.length > 0; next = await page(seen.at(-1))) seen.push(...next);
    expect(new Set(seen).size).toBe(12);
    expect([...seen].sort()).toEqual([...ids].sort());
  });
});
