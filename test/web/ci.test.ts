import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BareRemote } from '../helpers/git-remote.js';
import { axeViolations, CHROMIUM, hasChromium } from './browser.js';
import { apiCall, signedInOwner, type SignedIn } from './signed-in-server.js';

if (!hasChromium) console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

const LINT = 'name: Lint\non:\n  pull_request:\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm run lint\n';
// Line 6 holds a mapping key where a sequence item was expected: a YAML syntax error.
const BROKEN = 'name: Broken\non:\n  pull_request:\njobs:\n  lint:\n    steps:\n      - run: one\n    bad: [unclosed\n';

describe.skipIf(!hasChromium)('CI automation page in Chromium against orgctl serve and a plain Git remote', { timeout: 180_000 }, () => {
  let s: SignedIn;
  let remote: BareRemote;

  beforeAll(async () => {
    // A local bare repository is a file:// URL: allowed explicitly, as an on-premises installation would.
    s = await signedInOwner();
    remote = BareRemote.create();
  }, 120_000);
  afterAll(async () => {
    remote?.remove();
  });

  const editor = () => s.page.getByLabel('Workflow (YAML)');

  it('an invalid workflow shows the API’s line and column in place, on the line it names', async () => {
    const expected = await apiCall<{ metadata: { line: number; column: number } }>(s, 'POST', '/api/v0/automations/ci/edit', {
      repoUrl: remote.url,
      action: 'create',
      workflowPath: '.github/workflows/broken.yml',
      content: BROKEN,
    });
    expect(expected.status).toBe(400);
    const { line, column } = expected.body.metadata;

    const { page } = s;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'CI automation' }).click();
    await page.getByRole('heading', { name: 'CI automation', exact: true }).waitFor();
    await page.getByText('No pull request has been opened from orgctl yet.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Repository URL').fill(remote.url);
    await page.getByLabel('Workflow path').fill('.github/workflows/broken.yml');
    await editor().fill(BROKEN);
    await page.getByRole('button', { name: 'Open pull request' }).click();
    const message = page.getByTestId('yaml-error');
    await message.waitFor();
    expect(await message.textContent()).toContain(`Line ${line}, column ${column}: `);
    expect(await page.getByTestId('error-line').getAttribute('data-line')).toBe(String(line));
    expect(await page.locator('.yaml-editor .gutter .bad').textContent()).toBe(String(line));
    expect(await page.locator('.yaml-editor .line-message').textContent()).toMatch(new RegExp(`^${line}:${column} `));
    expect(await editor().getAttribute('aria-invalid')).toBe('true');
    // The highlight sits on the line: its top is (line - 1) line heights down the text.
    const box = await page.getByTestId('error-line').boundingBox();
    const area = await editor().boundingBox();
    expect(Math.round(box!.y - area!.y)).toBe(8 + (line - 1) * 20);
    expect(await axeViolations(page)).toEqual([]);
    // "Go to line" puts the caret where the error is.
    await page.getByRole('button', { name: `Go to line ${line}` }).click();
    const caret = await editor().evaluate((el) => (el as unknown as { selectionStart: number }).selectionStart);
    expect(BROKEN.slice(0, caret).split('\n').length).toBe(line);
    expect(remote.branches()).toEqual(['main', 'release']);
  });

  it('opens a pull request on the plain Git remote from the form, and lists it', async () => {
    const { page } = s;
    await page.getByLabel('Workflow path').fill('.github/workflows/lint.yml');
    await page.getByLabel('Title (optional)').fill('Lint on pull requests');
    await editor().fill(LINT);
    await page.getByRole('button', { name: 'Open pull request' }).click();
    const opened = page.getByTestId('pr-opened');
    await opened.waitFor();
    expect(await page.getByTestId('yaml-error').count()).toBe(0);
    const branch = /opened: (\S+) → main/.exec((await opened.textContent())!)![1]!;
    expect(branch).toMatch(/^ci\/create-lint-[0-9a-f]{8}$/);
    expect(remote.branches()).toContain(branch);
    expect(remote.file(branch, '.github/workflows/lint.yml')).toBe(LINT);
    const row = page.getByTestId('pull-requests').getByRole('row');
    await row.filter({ hasText: 'Lint on pull requests' }).waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.first().textContent()).toContain('#1');
    expect(await row.first().textContent()).toContain(branch);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('broke no Content-Security-Policy rule', () => {
    expect(s.cspViolations).toEqual([]);
  });
});
