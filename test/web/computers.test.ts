import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitRepo, nodeProject, startAgent, type AgentProcess } from '../helpers/agent-process.js';
import { axeViolations, CHROMIUM, hasChromium } from './browser.js';
import { apiCall, signedInAs, signedInOwner, type SignedIn } from './signed-in-server.js';

if (!hasChromium) console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

type Computer = { id: string; status: string; provisioningSteps: { id: string; status: string; installSessionId?: string }[] };

describe.skipIf(!hasChromium)('computers pages in Chromium against orgctl serve and a real orgctl agent', { timeout: 240_000 }, () => {
  let s: SignedIn;
  let agent: AgentProcess | undefined;
  let repo: string;
  let marker: string;
  let computerId: string;

  beforeAll(async () => {
    s = await signedInOwner();
    // (The words are split in the script, so the command line echoed into the log does not hold them.)
    // The install prints a line, then waits until the test lets it finish: the page can be seen
    // following a running install, and a second install-deps meets the first one still running.
    marker = path.join(s.root, 'let-install-finish');
    const script = `node -e "const f=require('fs');console.log('install '+'started');const t=setInterval(()=>{if(f.existsSync('${marker}')){console.log('install '+'finished');clearInterval(t)}},100)"`;
    repo = makeGitRepo(path.join(s.root, 'repos', 'shop'), nodeProject('shop', script));
  }, 120_000);
  afterAll(async () => {
    await agent?.stop('SIGKILL');
  });

  const stepBadge = (id: string) => s.page.getByTestId(`step-${id}`).locator('.badge');
  const waitText = (testId: string, text: string | RegExp) => s.page.getByTestId(testId).filter({ hasText: text }).waitFor({ timeout: 60_000 });

  it('creates a byom computer in the form; its page shows the steps pending and the agent command line', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Computers' }).click();
    await page.getByRole('heading', { name: 'Computers', exact: true }).waitFor();
    await page.getByText('No computers yet.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Name').fill('laptop');
    await page.getByLabel('Provider').selectOption('byom');
    await page.getByLabel('Repositories to clone (one URL a line, at most 20)').fill(repo);
    await page.getByRole('button', { name: 'Create computer' }).click();
    await page.getByRole('heading', { name: 'laptop', level: 1 }).waitFor();
    computerId = /\/computers\/([^/?#]+)$/.exec(page.url())![1]!;
    expect(await page.getByTestId('computer-status').textContent()).toBe('provisioning');
    expect(await stepBadge('connect-host').textContent()).toBe('pending');
    expect(await page.getByTestId('agent-command').textContent()).toBe(`orgctl agent --url ${s.server.url} --computer laptop`);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('with a real orgctl agent the steps reach active and the install log fills in live, without a reload', async () => {
    const { page } = s;
    // A reload or a navigation would drop this mark.
    await page.evaluate('window.__notReloaded = true');
    const reads: number[] = [];
    // When the page started each read of the computer, by the browser's clock (the test's own
    // clock would add the jitter of the DevTools connection).
    page.on('requestfinished', (r) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname === `/api/v0/computers/${computerId}`) reads.push(r.timing().startTime);
    });
    agent = startAgent({ url: s.server.url, key: s.key, computer: 'laptop', workdir: path.join(s.root, 'work') });
    await waitText('step-connect-host', 'succeeded');
    await waitText('step-clone-repos', 'succeeded');
    // The install runs and its log shows its first line while it waits.
    await waitText('step-install-dependencies', 'running');
    await waitText('step-log', 'install started');
    expect(await page.getByTestId('step-log').textContent()).toContain('package-lock.json found; $ npm ci');
    expect(await page.getByTestId('step-log').textContent()).not.toContain('install finished');
    expect(await page.getByTestId('computer-status').textContent()).toBe('provisioning');
    writeFileSync(marker, 'go');
    await waitText('computer-status', 'active');
    await waitText('step-log', 'install finished');
    expect(await stepBadge('install-dependencies').textContent()).toBe('succeeded');
    expect(await page.getByRole('heading', { name: /^Log of .*install session .* succeeded, exit code 0$/ }).count()).toBe(1);
    expect(await page.evaluate('window.__notReloaded')).toBe(true);
    // A round a second at most while it provisioned, and none once it has settled.
    reads.sort((a, b) => a - b);
    const gaps = reads.slice(1).map((t, i) => t - reads[i]!);
    // At least two reads while it provisioned (fewer rounds when the agent is quick).
    expect(gaps.length).toBeGreaterThan(0);
    // (The page waits a full second between round starts; the network stack's own start of a
    // request varies by some milliseconds around that.)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(950);
    const settled = reads.length;
    await page.waitForTimeout(2500);
    expect(reads.length).toBe(settled);
    expect(await axeViolations(page)).toEqual([]);

    // The overview counts it as active, and nothing else.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByTestId('overview-computers-active').filter({ hasText: '1' }).waitFor();
    expect(await page.getByTestId('overview-computers-provisioning').textContent()).toBe('0');
    expect(await page.getByTestId('overview-computers-error').textContent()).toBe('0');
    expect(await axeViolations(page)).toEqual([]);
    await page.goBack();
    await waitText('computer-status', 'active');
  });

  it('install-deps twice: the first starts a session, the second (while it runs) is shown as already running', async () => {
    const { page } = s;
    rmSync(marker, { force: true });
    const before = (await apiCall<Computer>(s, 'GET', `/api/v0/computers/${computerId}`)).body.provisioningSteps.find(
      (x) => x.id === 'install-dependencies',
    )!.installSessionId;
    const install = page.getByRole('button', { name: 'Install dependencies' });
    const first = page.waitForResponse((r) => r.url().endsWith('/install-deps'));
    await install.click();
    expect((await first).status()).toBe(202);
    await waitText('step-install-dependencies', 'running');
    await waitText('step-log', 'install started');
    // The install cannot end before the marker exists: the second call meets it running.
    const second = page.waitForResponse((r) => r.url().endsWith('/install-deps'));
    await install.click();
    expect((await second).status()).toBe(409);
    await page.getByTestId('install-already-running').waitFor();
    const running = (await apiCall<Computer>(s, 'GET', `/api/v0/computers/${computerId}`)).body.provisioningSteps.find((x) => x.id === 'install-dependencies')!;
    expect(running.status).toBe('running');
    expect(running.installSessionId).not.toBe(before);
    writeFileSync(marker, 'go');
    await waitText('computer-status', 'active');
    await waitText('step-log', 'install finished');
    expect(
      await page.getByRole('heading', { name: new RegExp(`install session ${running.installSessionId!.slice(0, 8)}, succeeded, exit code 0`) }).count(),
    ).toBe(1);
    expect(await page.evaluate('window.__notReloaded')).toBe(true);
  });

  it('renames the computer, then deletes it', async () => {
    const { page } = s;
    await agent?.stop();
    await page.getByLabel('New name').fill('laptop-2');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'laptop-2', level: 1 }).waitFor();
    expect(await page.getByTestId('agent-command').textContent()).toContain('--computer laptop-2');
    expect((await apiCall<{ name: string }>(s, 'GET', `/api/v0/computers/${computerId}`)).body.name).toBe('laptop-2');
    await page.getByRole('button', { name: 'Delete computer' }).click();
    await page.getByRole('button', { name: 'Delete laptop-2 for good' }).click();
    await page.getByRole('heading', { name: 'Computers', exact: true }).waitFor();
    await page.getByText('No computers yet.').waitFor();
    expect((await apiCall(s, 'GET', `/api/v0/computers/${computerId}`)).status).toBe(404);
  });

  it('as the API rules: a member sees only their own computers, another one is not found; a guest is told computers are not for guests', async () => {
    const owners = await apiCall<{ id: string }>(s, 'POST', '/api/v0/computers', { name: 'owners-box', provider: 'byom' });
    expect(owners.status).toBe(201);
    const member = await signedInAs(s, 'member', 'member@web.test');
    await member.goto(`${s.server.url}/computers`);
    await member.getByRole('heading', { name: 'Computers', exact: true }).waitFor();
    await member.getByText('No computers yet.').waitFor();
    await member.getByLabel('Name').fill('members-box');
    await member.getByRole('button', { name: 'Create computer' }).click();
    await member.getByRole('heading', { name: 'members-box', level: 1 }).waitFor();
    await member.getByRole('link', { name: 'All computers' }).click();
    await member.getByRole('table', { name: 'Your computers' }).waitFor();
    expect(await member.getByRole('link', { name: 'owners-box' }).count()).toBe(0);
    expect(await member.getByRole('link', { name: 'members-box' }).count()).toBe(1);
    await member.goto(`${s.server.url}/computers/${owners.body.id}`);
    await member
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    expect(await axeViolations(member)).toEqual([]);
    await member.context().close();

    const guest = await signedInAs(s, 'guest', 'guest@web.test');
    await guest.goto(`${s.server.url}/computers`);
    await guest.getByText('Guests cannot use computers').waitFor();
    expect(await guest.getByRole('button', { name: 'Create computer' }).count()).toBe(0);
    await guest.goto(`${s.server.url}/ci`);
    await guest.getByText('Guests cannot open pull requests').waitFor();
    expect(await guest.getByRole('button', { name: 'Open pull request' }).count()).toBe(0);
    await guest.context().close();
  });

  it('broke no Content-Security-Policy rule', () => {
    expect(s.cspViolations).toEqual([]);
  });
});
