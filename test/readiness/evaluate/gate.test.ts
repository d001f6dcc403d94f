import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { makeRepo } from './fixtures.js';

/** `orgctl readiness evaluate --min-level N` as a CI step, run as a process (from dist/). */

const scratch = mkdtempSync(path.join(tmpdir(), 'orgctl-gate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const monorepo = makeRepo({
  'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['apps/*'] }),
  'apps/web/package.json': JSON.stringify({ name: 'web', scripts: { start: 'vite', test: 'vitest run' } }),
  'apps/web/src/a.test.ts': '',
  'apps/api/package.json': JSON.stringify({ name: 'api', scripts: { start: 'node .' } }),
  'README.md': '# Shop\n\n## Install\n\nnpm ci\n',
});
const env = (summary?: string) => ({ GITHUB_TOKEN: '', GITHUB_STEP_SUMMARY: summary ?? '' });

describe('orgctl readiness evaluate --min-level', () => {
  it('exits 0 at or above the level, 1 below it saying so, and 2 on a level that is not 1-5', async () => {
    const json = JSON.parse((await runCli(['readiness', 'evaluate', monorepo, '--json'], env())).stdout) as object;
    expect(json).toHaveProperty('report');
    const at = await runCli(['readiness', 'evaluate', monorepo, '--min-level', '1'], env());
    expect(at.code).toBe(0);
    const below = await runCli(['readiness', 'evaluate', monorepo, '--min-level', '5'], env());
    expect(below.code).toBe(1);
    expect(below.stderr).toMatch(/^Readiness level [1-4] is below the required level 5\.$/m);
    expect(below.stdout).toMatch(/^Level: [1-4] \(80 % rule\)/m);
    const bad = await runCli(['readiness', 'evaluate', monorepo, '--min-level', '7'], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--min-level must be a whole number from 1 to 5, not "7"/);
  });

  it('appends a Markdown summary to $GITHUB_STEP_SUMMARY, with which applications pass and fail each criterion', async () => {
    const file = path.join(scratch, 'summary.md');
    writeFileSync(file, '# Earlier step\n');
    const res = await runCli(['readiness', 'evaluate', monorepo, '--min-level', '5', '--repo-url', 'https://github.com/acme/shop'], env(file));
    expect(res.code).toBe(1);
    const md = readFileSync(file, 'utf8');
    expect(md.startsWith('# Earlier step\n## Agent readiness: level ')).toBe(true);
    expect(md).toMatch(/\(required 5: \*\*below the required level\*\*\)/);
    expect(md).toMatch(/^\| Pillar \| Passed \| Rate \|$/m);
    expect(md).toMatch(/^\| `apps\/web` \| \d+\/\d+ \|$/m);
    // unit_tests_exist: apps/web has a test, apps/api has none.
    expect(md).toMatch(/^\| 1 \| `unit_tests_exist` 1\/2 \| `apps\/api` \| `apps\/web` \| /m);
  });

  it('shows in the terminal summary which applications fail and pass each criterion', async () => {
    const res = await runCli(['readiness', 'evaluate', monorepo], env());
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^ {2}apps\/api +\d+\/\d+$/m);
    expect(res.stdout).toMatch(/^ {2}L1 unit_tests_exist 1\/2: .*\n {6}fails in: apps\/api {3}passes in: apps\/web$/m);
  });
});
