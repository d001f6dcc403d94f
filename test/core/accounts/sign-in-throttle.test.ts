import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../src/core/accounts/secrets.js';
import { TestClock } from '../../../src/core/clock.js';
import { expectErrorObject, TestApp, type Org, type Response } from '../../helpers/test-app.js';

// The documented policy (docs/web-app.md): 5 free failures per account, 20 per address, then a
// wait that doubles from 1 s up to 60 s. Time moves only when a test advances this clock.
const ACCOUNT_ALLOWANCE = 5;
const ADDRESS_ALLOWANCE = 20;
const clock = new TestClock();

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start({}, { clock });
  org = await t.createOrg('throttle');
});
afterAll(() => t?.close());

let addresses = 0;
/** A client address no other test uses, so each test's per-address counter starts at zero. */
const freshAddress = () => {
  const n = ++addresses;
  return `10.0.${n >> 8}.${n & 255}`;
};

async function userWithPassword(password = 'the real password') {
  const user = await t.addUser(org, 'member');
  await t.db.query(`UPDATE principals SET password_hash = $2 WHERE id = $1`, [user.id, await hashPassword(password)]);
  return { ...user, password };
}

/** A sign-in from `ip`, as a browser on the app's page posts it. */
async function login(email: string, password: string, ip: string): Promise<Response> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v0/session/login',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    payload: JSON.stringify({ email, password }),
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers, raw: res.body };
}

const statuses = (responses: Response[]) => responses.reduce<Record<number, number>>((n, r) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }), {});

describe('per account', () => {
  it('200 concurrent wrong guesses from 200 addresses: only the free allowance is checked (401), the rest get 429 with Retry-After', async () => {
    const victim = await userWithPassword();
    const guesses = await Promise.all(Array.from({ length: 200 }, (_, i) => login(victim.email, `guess number ${i}`, freshAddress())));
    expect(statuses(guesses)).toEqual({ 401: ACCOUNT_ALLOWANCE, 429: 200 - ACCOUNT_ALLOWANCE });
    for (const refused of guesses.filter((r) => r.status === 429)) {
      expectErrorObject(refused, 429);
      expect(Number(refused.headers['retry-after'])).toBe(1);
    }

    // The real person is not locked out: refused only until the (short) delay has passed.
    const home = freshAddress();
    expect((await login(victim.email, victim.password, home)).status).toBe(429);
    clock.advance(1000);
    expect((await login(victim.email, victim.password, home)).status).toBe(200);
    // A success resets the account's counter: the free allowance is whole again.
    for (let i = 0; i < ACCOUNT_ALLOWANCE; i++) expect((await login(victim.email, `typo ${i}`, home)).status).toBe(401);
    expect((await login(victim.email, victim.password, home)).status).toBe(429);
  });

  it('each failure past the allowance doubles the wait, from 1 s up to 60 s; a correct password after the wait signs in', async () => {
    const user = await userWithPassword();
    const from = () => freshAddress();
    for (let i = 0; i < ACCOUNT_ALLOWANCE; i++) expect((await login(user.email, `guess ${i}`, from())).status).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      const refused = await login(user.email, `early guess ${i}`, from());
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers['retry-after']);
      waits.push(wait);
      clock.advance(wait * 1000 - 1);
      expect((await login(user.email, `still early ${i}`, from())).status).toBe(429);
      clock.advance(1);
      expect((await login(user.email, `guess after the wait ${i}`, from())).status).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    clock.advance(60_000);
    expect((await login(user.email, user.password, from())).status).toBe(200);
  });

  it('unknown emails are throttled alike, so a 429 tells nothing about which accounts exist', async () => {
    const ghost = 'nobody-here@throttle.test';
    for (let i = 0; i < ACCOUNT_ALLOWANCE; i++) expect((await login(ghost, `guess ${i}`, freshAddress())).status).toBe(401);
    expect((await login(ghost, 'one more', freshAddress())).status).toBe(429);
  });

  it('failures are forgotten an hour after the last one', async () => {
    const user = await userWithPassword();
    for (let i = 0; i < ACCOUNT_ALLOWANCE; i++) expect((await login(user.email, `guess ${i}`, freshAddress())).status).toBe(401);
    clock.advance(3_600_000);
    for (let i = 0; i < ACCOUNT_ALLOWANCE; i++) expect((await login(user.email, `later guess ${i}`, freshAddress())).status).toBe(401);
  });
});

describe('per address', () => {
  it('failed sign-ins from one address across accounts: the free allowance, then 429 even for another account', async () => {
    const ip = freshAddress();
    for (let i = 0; i < ADDRESS_ALLOWANCE; i++) expect((await login(`someone-${i}@throttle.test`, 'a guess', ip)).status).toBe(401);
    const user = await userWithPassword();
    const refused = expectErrorObject(await login(user.email, user.password, ip), 429);
    expect(refused.detail).toMatch(/Too many failed sign-ins/);
    // Another address is not held up, and this one may try again once the wait has passed.
    expect((await login(user.email, user.password, freshAddress())).status).toBe(200);
    clock.advance(1000);
    expect((await login(user.email, user.password, ip)).status).toBe(200);
  });

  it('200 concurrent guesses at 200 accounts from one address: only the allowance is checked', async () => {
    const ip = freshAddress();
    const guesses = await Promise.all(Array.from({ length: 200 }, (_, i) => login(`spray-${i}@throttle.test`, 'Summer2026!', ip)));
    expect(statuses(guesses)).toEqual({ 401: ADDRESS_ALLOWANCE, 429: 200 - ADDRESS_ALLOWANCE });
  });

  it('successful sign-ins do not use up the allowance of their address', async () => {
    const ip = freshAddress();
    const user = await userWithPassword();
    for (let i = 0; i < ADDRESS_ALLOWANCE + 5; i++) expect((await login(user.email, user.password, ip)).status).toBe(200);
    expect((await login('someone@throttle.test', 'a guess', ip)).status).toBe(401);
  });

  it('behind a trusted proxy (TRUST_PROXY), the address is the client X-Forwarded-For names', async () => {
    const proxied = await t.otherProcess({ trustProxy: true });
    try {
      const guess = async (n: number, client: string) => {
        const res = await proxied.inject({
          method: 'POST',
          url: '/api/v0/session/login',
          remoteAddress: '10.9.9.9',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
          payload: JSON.stringify({ email: `proxied-${n}@throttle.test`, password: 'a guess' }),
        });
        return res.statusCode;
      };
      for (let i = 0; i < ADDRESS_ALLOWANCE; i++) expect(await guess(i, '203.0.113.10')).toBe(401);
      expect(await guess(ADDRESS_ALLOWANCE, '203.0.113.10')).toBe(429);
      expect(await guess(ADDRESS_ALLOWANCE + 1, '203.0.113.11')).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});
