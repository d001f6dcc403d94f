import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { onCleanup, tempDir } from '../helpers/cleanup.js';
import { runCli, startServer } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';
import { sharedBrowser } from './browser.js';
import { orgName, WEB_SETTINGS } from './global-setup.js';

export interface SignedIn {
  server: { url: string };
  /** The organization's owner, signed in on `page`. */
  owner: { email: string; password: string };
  /** The owner's API key, for what a test sets up over the API. */
  key: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy complaints of the page's console. */
  cspViolations: string[];
  /** A scratch directory of the test file, removed when it ends. */
  root: string;
}

/**
 * A Chromium page signed in, through the first-run setup page as a person would, as the owner of
 * the test file's own organization on the web lane's `orgctl serve` (global-setup.ts). With
 * `prepare`, the file gets a server of its own instead: an installation with organization `web`
 * made by `orgctl init`, then `prepare` (history a test cannot make through today's API, while
 * no server holds the database; it may answer settings of the server), then `orgctl serve`. Everything is undone when the file ends.
 */
export async function signedInOwner(
  prepare?: (dbEnv: Record<string, string>, owner: { email: string; orgId: string }) => Promise<void | Record<string, string>>,
): Promise<SignedIn> {
  const root = tempDir('orgctl-web-pages-');
  const lane = inject('webLane');
  const name = orgName(expect.getState().testPath!);
  let at: { url: string; email: string; key: string; setupToken: string };
  if (prepare || !lane?.orgs[name]) {
    const email = `owner@${name}.web.test`;
    const dbEnv = await installation();
    const init = await runCli(['init', '--org', 'web', '--owner-email', email, '--json'], dbEnv);
    expect(init.code, init.stderr).toBe(0);
    const initialized = JSON.parse(init.stdout) as { apiKey: string; orgId: string };
    const settings = (await prepare?.(dbEnv, { email, orgId: initialized.orgId })) ?? {};
    const setupToken = `${name}-own-setup-token`;
    const server = await startServer({ ...WEB_SETTINGS, ...dbEnv, ORGCTL_SETUP_TOKEN: setupToken, ...settings });
    onCleanup(() => server.stop());
    at = { url: server.url, email, key: initialized.apiKey, setupToken };
  } else at = { url: lane.url, ...lane.orgs[name]! };
  const browser = await sharedBrowser();
  onCleanup(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  const owner = { email: at.email, password: 'owner password 123' };
  await page.goto(`${at.url}/setup#token=${at.setupToken}`);
  await page.getByLabel('Owner password (at least 10 characters)').fill(owner.password);
  await page.getByLabel('Repeat it').fill(owner.password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  return { server: { url: at.url }, owner, key: at.key, browser, context, page, cspViolations, root };
}

/** A call of the API with the owner's key; the body parsed when there is one. */
export async function apiCall<T>(
  s: { server: { url: string }; key: string },
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${s.server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${s.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** A page in a fresh browser context signed in as a new user of `role`, invited with the owner's key and accepted as a person would. */
export async function signedInAs(s: SignedIn, role: 'manager' | 'member' | 'guest', email: string): Promise<Page> {
  const invited = await apiCall<{ url: string }>(s, 'POST', '/api/v0/organization/invitations', { email, role });
  expect(invited.status).toBe(201);
  const context = await s.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(invited.body.url);
  await page.getByLabel('Password (at least 10 characters)').fill(`${role} password 123`);
  await page.getByLabel('Repeat it').fill(`${role} password 123`);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  return page;
}

/** A page of a new browser context at `viewport`, signed in as the owner at /login as a person would; closing its context is the caller's. */
export async function ownerSignedInAt(s: SignedIn, viewport: { width: number; height: number }): Promise<Page> {
  const context = await s.browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${s.server.url}/login`);
  await page.getByLabel('Email').fill(s.owner.email);
  await page.getByLabel('Password').fill(s.owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  return page;
}
