import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { openDb } from '../../src/core/db/open-db.js';
import { OperatorIdentity } from '../../src/core/identity/operator.js';
import { IdentityService } from '../../src/core/identity/service.js';
import { startServer } from '../helpers/cli.js';
import { installationTemplate } from '../helpers/db-template.js';
import { CHROMIUM_ARGS, CHROMIUM, hasChromium } from './browser.js';

export interface WebOrg {
  email: string;
  /** The owner's API key. */
  key: string;
  /** The owner's one-time setup token, as `orgctl serve` printed it. */
  setupToken: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The web lane's one `orgctl serve` and one Chromium, and each test file's organization (by the file's name). */
    webLane: { url: string; browser: string; orgs: Record<string, WebOrg> } | undefined;
  }
}

/**
 * What the web lane's server allows, the union of what its files need: repositories and
 * webhook receivers on loopback, an identity provider on plain http, no rate limits (the pages'
 * tests make many calls in a moment), and quick computer leases and webhook rounds.
 */
export const WEB_SETTINGS = {
  CI_ALLOW_PRIVATE_NETWORK: 'true',
  SSO_ALLOW_PRIVATE_ISSUER: 'true',
  RATE_LIMITS: 'false',
  COMPUTERS_LEASE_MS: '2000',
  COMPUTERS_ENGINE_TICK_MS: '100',
  WEBHOOKS_TICK_MS: '50',
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
};

/** Test files' names to organizations' names: `feedback-charts-and-dates.test.ts` is organization `feedback-charts-and-dates`. */
export const orgName = (file: string) => path.basename(file, '.test.ts');

/**
 * The web lane's global setup: one `orgctl serve` and one Chromium for all its files, each file
 * with an organization of its own (so their data never meet), made before the server starts
 * with an owner who has no password yet: the server prints each owner's setup link, and the file
 * signs in there as a person would (signed-in-server.ts). A file that needs history made
 * before its server starts has a server of its own, and shares the browser.
 */
export default async function setup(project: TestProject) {
  if (project.name !== 'web' || !hasChromium) return;
  const root = mkdtempSync(path.join(tmpdir(), 'orgctl-web-lane-'));
  const stops: (() => Promise<unknown>)[] = [async () => rmSync(root, { recursive: true, force: true })];
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    const dataDir = path.join(root, 'data');
    cpSync(await installationTemplate(), path.join(dataDir, 'pgdata'), { recursive: true });
    const keys = await createOrganizations(dataDir, (await project.globTestFiles()).testFiles.map(orgName));
    const server = await startServer({ ...WEB_SETTINGS, DATA_DIR: dataDir, DATABASE_URL: '' });
    stops.push(() => server.stop());
    const orgs: Record<string, WebOrg> = {};
    for (const m of server.output().matchAll(/set the password of (\S+) \(owner of "([^"]+)"\) at this one-time URL:\n\s+\S+\/setup#token=(\S+)/g)) {
      orgs[m[2]!] = { email: m[1]!, key: keys.get(m[2]!)!, setupToken: m[3]! };
    }
    const browser = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    stops.push(() => browser.close());
    project.provide('webLane', { url: server.url, browser: browser.wsEndpoint(), orgs });
  } catch (e) {
    await teardown();
    throw e;
  }
  return teardown;
}

async function createOrganizations(dataDir: string, names: string[]): Promise<Map<string, string>> {
  const db = await openDb({ dataDir, databaseUrl: undefined, databasePoolSize: 1 });
  try {
    const operator = new OperatorIdentity({ db, identity: new IdentityService({ db }) });
    const keys = new Map<string, string>();
    for (const name of names) keys.set(name, (await operator.createOrganization({ name, ownerEmail: `owner@${name}.web.test` })).apiKey);
    return keys;
  } finally {
    await db.close();
  }
}
