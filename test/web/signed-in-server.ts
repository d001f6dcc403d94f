import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { runCli, startServer, type Server } from '../helpers/cli.js';
import { createPostgresDatabase, onPostgres } from '../helpers/test-db.js';
import { launch } from './browser.js';

export const OWNER = { email: 'owner@web.test', password: 'owner password 123' };
const SETUP_TOKEN = 'browser-pages-setup-token';

export interface SignedIn {
  server: Server;
  /** The owner's API key, printed by `orgctl init`, for what a test sets up over the API. */
  key: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy complaints of the page's console. */
  cspViolations: string[];
  /** A scratch directory of the test file, removed by close. */
  root: string;
  close(): Promise<void>;
}

/**
 * A real `orgctl serve` (on its own data directory, or its own PostgreSQL database) with an
 * organization made by `orgctl init`, and a Chromium page signed in as its owner through the
 * first-run setup page, as a person would.
 */
export async function signedInOwner(
  env: Record<string, string> = {},
  /** Runs after `orgctl init`, before the server starts (it then holds the database): history a test cannot make through today's API. */
  prepare?: (dbEnv: Record<string, string>) => Promise<void>,
): Promise<SignedIn> {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  const root = mkdtempSync(path.join(tmpdir(), 'orgctl-web-pages-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const close = async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  };
  try {
    let dbEnv: Record<string, string>;
    if (onPostgres) {
      const db = await createPostgresDatabase();
      cleanups.push(() => db.drop());
      dbEnv = { DATABASE_URL: db.url };
    } else dbEnv = { DATA_DIR: path.join(root, 'data'), DATABASE_URL: '' };
    const init = await runCli(['init', '--org', 'web', '--owner-email', OWNER.email, '--json'], { ...dbEnv, ...env });
    expect(init.code, init.stderr).toBe(0);
    const key = (JSON.parse(init.stdout) as { apiKey: string }).apiKey;
    await prepare?.({ ...dbEnv, ...env });
    const server = await startServer({ ...dbEnv, ...env, ORGCTL_SETUP_TOKEN: SETUP_TOKEN });
    cleanups.push(() => server.stop());
    const browser = await launch();
    cleanups.push(() => browser.close());
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    await page.goto(`${server.url}/setup#token=${SETUP_TOKEN}`);
    await page.getByLabel('Owner password (at least 10 characters)').fill(OWNER.password);
    await page.getByLabel('Repeat it').fill(OWNER.password);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    return { server, key, browser, context, page, cspViolations, root, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** A call of the API with the owner's key; the body parsed when there is one. */
export async function apiCall<T>(s: { server: Server; key: string }, method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
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
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  return page;
}
