import { beforeAll, describe, expect, it } from 'vitest';
import { downloaded, hasChromium } from './browser.js';
import { apiCall, signedInOwner, type SignedIn } from './signed-in-server.js';

const MODEL = '=HYPERLINK("http://evil.test/","open")';
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** The web app's CSV download writes a model name a spreadsheet would run as text, as the CLI does. */
describe.skipIf(!hasChromium)('CSV downloads in Chromium: formula injection', { timeout: 240_000 }, () => {
  let s: SignedIn;
  beforeAll(async () => {
    s = await signedInOwner();
    const event = {
      id: 'web-csv-1',
      type: 'model_request',
      timestamp: `${yesterday}T12:00:00Z`,
      sessionId: 's1',
      client: 'terminal-ui',
      model: MODEL,
      tier: 'standard',
      inputTokens: 700,
      outputTokens: 5,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    };
    expect((await apiCall(s, 'POST', '/api/v1/telemetry/events', { events: [event] })).status).toBe(202);
  }, 240_000);

  it('the credits page saves a model name starting with = quoted, with a leading quote', async () => {
    await s.page.goto(`${s.server.url}/analytics/credits`);
    await s.page.getByRole('heading', { name: 'Credits and tokens' }).waitFor();
    const button = s.page.getByRole('button', { name: 'Download CSV (per day and model)' });
    await button.and(s.page.locator(':enabled')).waitFor();
    const [file] = await Promise.all([s.page.waitForEvent('download'), button.click()]);
    const csv = await downloaded(file);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.test/"",""open"")"`);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});
