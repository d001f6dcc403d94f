import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/core/clock.js';
import { expectErrorObject, TestApp } from '../../helpers/test-app.js';
import { CookieSession } from './cookie-session.js';

// Each start of `orgctl serve` issues the tokens; a test "starts" by calling issueSetupTokens
// on the app's own accounts service, and passes days by moving this clock.
const clock = new TestClock();
const HOUR = 3_600_000;

let t: TestApp;

beforeAll(async () => {
  t = await TestApp.start({}, { clock });
});
afterAll(() => t?.close());

/** A new organization whose owner has no password yet, and the token a start printed for it. */
async function start(orgName: string, fixed?: string): Promise<string> {
  const issued = await t.services.accounts.issueSetupTokens(fixed);
  const mine = issued.find((s) => s.orgName === orgName);
  if (!mine) throw new Error(`no setup token issued for ${orgName}`);
  return mine.token;
}

const setup = (token: string) => new CookieSession(t).request('POST', '/api/v0/session/setup', { body: { token, password: 'first owner password' } });

describe('setup tokens', () => {
  it('a token printed at an earlier start stops working once a later start issues another', async () => {
    await t.createOrg('restarted');
    const first = await start('restarted');
    const second = await start('restarted');
    expect(second).not.toBe(first);
    expectErrorObject(await setup(first), 403);
    expect((await setup(second)).status).toBe(200);
  });

  it('a token expires 24 hours after it was issued', async () => {
    await t.createOrg('late');
    const token = await start('late');
    clock.advance(24 * HOUR);
    const refused = expectErrorObject(await setup(token), 403);
    expect(refused.detail).toMatch(/expired/);
    // The next start prints a fresh one, which works.
    expect((await setup(await start('late'))).status).toBe(200);
  });

  it('a token still works just before its 24 hours are up', async () => {
    await t.createOrg('in-time');
    const token = await start('in-time');
    clock.advance(24 * HOUR - 1000);
    expect((await setup(token)).status).toBe(200);
  });

  it('ORGCTL_SETUP_TOKEN: the fixed token is the latest at every start, and its 24 hours start again', async () => {
    await t.createOrg('scripted');
    const fixed = 'scripted-install-setup-token';
    // (The fixed token goes to the first organization awaiting setup: here, the only one.)
    expect(await start('scripted', fixed)).toBe(fixed);
    clock.advance(20 * HOUR);
    expect(await start('scripted', fixed)).toBe(fixed);
    clock.advance(20 * HOUR);
    expect((await setup(fixed)).status).toBe(200);
  });
});
