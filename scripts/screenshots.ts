/**
 * npm run screenshots — a picture of every page of the web app for docs/web-app.md, taken from a
 * real `orgctl serve` (PGlite in a temporary directory) holding a demo organization: 12 demo
 * members over 60 days of usage, a global limit with one override, a readiness report that
 * `orgctl readiness evaluate` made of a small git repository, a service account with a key, and
 * a byom computer made active by a real `orgctl agent`. Debian's Chromium, headless, 1280×800.
 *
 * The pictures go to docs/screenshots/NAME.png, replacing what is there.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { acceptInvitation, cli, freshPage, invite, launchChromium, MAIN, serviceStorage, startService, type Service } from '../bench/web-harness.js';

const OUT = path.resolve('docs/screenshots');
const VIEWPORT = { width: 1280, height: 800 };
/** A phone's width: the pages that show how the app narrows (navigation above, tables scrolling in their own box). */
const NARROW = { width: 390, height: 844 };
const NARROW_PAGES = ['overview', 'analytics-credits', 'members'];

/** Each page: its file name, its address, and what a visitor has seen once it is drawn. */
const PAGES: { name: string; path: string; signedOut?: boolean }[] = [
  { name: 'login', path: '/login', signedOut: true },
  { name: 'overview', path: '/' },
  { name: 'my-usage', path: '/usage' },
  { name: 'analytics-credits', path: '/analytics/credits?days=30' },
  { name: 'analytics-tools', path: '/analytics/tools?days=30' },
  { name: 'analytics-activity', path: '/analytics/activity?days=30' },
  { name: 'analytics-productivity', path: '/analytics/productivity?days=30' },
  { name: 'analytics-users', path: '/analytics/users?days=30' },
  { name: 'readiness', path: '/readiness' },
  { name: 'readiness-repository', path: '/readiness/repository?repo=github.com%2Facme%2Fshop' },
  { name: 'computers', path: '/computers' },
  { name: 'computer', path: '/computers/{computerId}' },
  { name: 'ci', path: '/ci' },
  { name: 'members', path: '/settings/members' },
  { name: 'api-keys', path: '/settings/api-keys' },
  { name: 'service-accounts', path: '/settings/service-accounts' },
  { name: 'usage-limits', path: '/settings/usage-limits' },
  { name: 'limits-audit', path: '/settings/usage-limits/audit' },
  { name: 'profile', path: '/settings/profile' },
];

async function api<T>(service: Service, key: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${service.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

function git(cwd: string, ...args: string[]) {
  const res = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`git ${args.join(' ')}: ${res.stderr}`);
}

/** A small repository with a lint config, tests and a README, as a team's might look. */
function sampleRepository(root: string): string {
  const dir = path.join(root, 'shop');
  mkdirSync(path.join(dir, 'test'), { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'shop', scripts: { test: 'node --test', lint: 'eslint .' }, devDependencies: { eslint: '9.0.0' } }, null, 2),
  );
  writeFileSync(path.join(dir, 'eslint.config.js'), 'export default [];\n');
  writeFileSync(path.join(dir, 'README.md'), '# shop\n\nRun `npm test`.\n');
  writeFileSync(path.join(dir, 'index.js'), 'export const total = (items) => items.reduce((s, i) => s + i.price, 0);\n');
  writeFileSync(
    path.join(dir, 'test', 'total.test.js'),
    "import test from 'node:test';\nimport { total } from '../index.js';\ntest('total', () => { if (total([{ price: 2 }]) !== 2) throw new Error(); });\n",
  );
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'remote', 'add', 'origin', 'https://github.com/acme/shop.git');
  git(dir, 'add', '.');
  git(dir, '-c', 'user.name=Demo', '-c', 'user.email=demo@example.com', 'commit', '-qm', 'first');
  return dir;
}

/** What a person sees once the page has drawn: its heading, no request in flight, nothing loading. */
async function drawn(page: Page) {
  await page.locator('h1').first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await page
    .getByText('Loading…')
    .first()
    .waitFor({ state: 'detached', timeout: 30_000 })
    .catch(() => undefined);
  // Charts draw on the next frame after their data arrives.
  await page.waitForTimeout(300);
}

async function main() {
  const storage = serviceStorage();
  const work = mkdtempSync(path.join(tmpdir(), 'orgctl-screenshots-'));
  const { apiKey: key } = JSON.parse(cli(['init', '--org', 'Acme', '--owner-email', 'owner@acme.example', '--json'], storage.env)) as { apiKey: string };
  cli(['demo', 'seed', '--users', '12', '--days', '60'], storage.env);
  const token = invite(storage.env, 'owner', 'dana@acme.example');
  const service = await startService(storage.env);
  const agent = { stop: () => undefined as void };
  const browser = await launchChromium();
  try {
    const repo = sampleRepository(work);
    const evaluated = spawnSync(process.execPath, [MAIN, 'readiness', 'evaluate', repo, '--upload', '--url', service.url, '--key', key], { encoding: 'utf8' });
    if (evaluated.status !== 0) throw new Error(`orgctl readiness evaluate: ${evaluated.stderr}`);
    await api(service, key, 'PUT', '/api/v0/organization/usage/limits/global', { limit: 20_000_000 });
    await api(service, key, 'PUT', '/api/v0/organization/usage/limits/users', { users: [{ email: 'demo-user-001@demo.orgctl.test', limit: 50_000_000 }] });
    const account = await api<{ id: string }>(service, key, 'POST', '/api/v0/organization/service-accounts', { name: 'ci-bot', role: 'member' });
    await api(service, key, 'POST', '/api/v0/api-keys', { name: 'GitHub Actions', principalId: account.id });
    const computer = await api<{ id: string }>(service, key, 'POST', '/api/v0/computers', { name: 'laptop', repos: [], autoInstallDeps: false });
    const child = spawn(process.execPath, [MAIN, 'agent', '--url', service.url, '--computer', 'laptop', '--workdir', path.join(work, 'agent')], {
      stdio: 'ignore',
      env: { ...process.env, ORGCTL_API_KEY: key },
    });
    agent.stop = () => void child.kill('SIGTERM');

    const cookies = await acceptInvitation(browser, service, token, 'Dana Owner');
    mkdirSync(OUT, { recursive: true });
    const shots = [
      ...PAGES.map((p) => ({ ...p, file: p.name, viewport: VIEWPORT })),
      ...PAGES.filter((p) => NARROW_PAGES.includes(p.name)).map((p) => ({ ...p, file: `${p.name}-narrow`, viewport: NARROW })),
    ];
    for (const p of shots) {
      const page = await freshPage(browser, p.signedOut ? [] : cookies, p.viewport);
      await page.goto(`${service.url}${p.path.replace('{computerId}', computer.id)}`);
      await drawn(page);
      await page.screenshot({ path: path.join(OUT, `${p.file}.png`) });
      await page.context().close();
      console.log(`docs/screenshots/${p.file}.png`);
    }
  } finally {
    agent.stop();
    await browser.close();
    await service.stop();
    storage.remove();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
