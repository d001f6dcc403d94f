import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';

// What was seen in use: a guest sent, day after day, a thousand distinct tool names of 200
// characters; a manager's year of /tools then took seconds and hundreds of megabytes per request,
// and six at once held /healthz for seconds. Forty such days here (the machine running the suite
// is shared): before the fix each answer was 9 MB.
const DAYS = 40;
const FIRST = Date.UTC(2026, 2, 1);
/** The most a day row of /tools can take (docs/analytics.md). */
const TOOLS_DAY_MAX_BYTES = 48 * 1024;
const YEAR = '/api/v1/analytics/tools?startDate=2026-01-14&endDate=2026-11-20';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start({ rateLimits: false });
  org = await t.createOrg('report-size-org');
  const guest = await t.addUser(org, 'guest');
  for (let d = 0; d < DAYS; d++) {
    const day = new Date(FIRST + d * 86_400_000).toISOString().slice(0, 10);
    const events = Array.from({ length: 1000 }, (_, i) => ({
      id: `${day}-${i}`,
      type: 'tool_call',
      timestamp: `${day}T10:00:00Z`,
      sessionId: 's',
      client: 'terminal-ui',
      autonomyLevel: 'manual',
      tool: `${day}-${i}-`.padEnd(200, 'x'),
    }));
    const res = await t.request('POST', '/api/v1/telemetry/events', { key: guest.key, body: { events } });
    expect(res.status, res.raw).toBe(202);
  }
}, 300_000);
afterAll(() => t?.close());

/** A report as a client gets it, not parsed here (parsing megabytes would hold this test's own event loop). */
const report = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${org.ownerKey}` } });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
};

describe('reports a guest tried to bloat', () => {
  it('answers /healthz within 100 ms while six year-long /tools reports are built, and each stays small', async () => {
    let building = true;
    const reports = Promise.all(Array.from({ length: 6 }, () => report(YEAR))).finally(() => (building = false));
    const waits: number[] = [];
    while (building) {
      const start = performance.now();
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      waits.push(performance.now() - start);
      await sleep(5);
    }
    const bodies = await reports;
    expect(Math.max(...waits)).toBeLessThan(100);
    for (const body of bodies) expect(body.length).toBeLessThanOrEqual(DAYS * TOOLS_DAY_MAX_BYTES);
    // The same again, from the rows kept, and by tool name.
    expect((await report(YEAR)).equals(bodies[0]!)).toBe(true);
    expect((await report(`${YEAR}&group_by=tool_name`)).length).toBeLessThanOrEqual(DAYS * 201 * 300);
  });
});
