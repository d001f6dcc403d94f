import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { GitHubApiTestDouble } from '../../helpers/github-api-test-double.js';
import { gitIn, makeRepo, type Files } from '../evaluate/fixtures.js';

const NO_FORGE = { GITHUB_TOKEN: '', GITHUB_API_URL: '' };

const NODE_SERVICE: Files = {
  'package.json': JSON.stringify({ name: 'shop', scripts: { build: 'tsc', test: 'vitest run', lint: 'eslint .' } }),
  'package-lock.json': '{}',
  'README.md': '# Shop\n',
  'src/main.ts': 'const url = process.env.DATABASE_URL;\nconsole.log(url);\n',
};

interface FixJson {
  dryRun: boolean;
  written: boolean;
  head: string;
  plan: { generator: string; action: string; files?: string[]; reason?: string }[];
  files: { path: string; generator: string; criteria: string[]; content: string }[];
  criteria: { id: string; before: string; after: string | null; awaitsForge: boolean }[];
  before: { level: number; passRate: number };
  after: { level: number; passRate: number } | null;
  stillFailing: string[];
  regressions: string[];
  delivery: Record<string, unknown> | null;
}

const refs = (dir: string) => gitIn(dir, 'for-each-ref', '--format=%(refname) %(objectname)');
const verdict = (j: FixJson, id: string) => j.criteria.find((c) => c.id === id);

let ghe: GitHubApiTestDouble;
beforeAll(async () => {
  ghe = await GitHubApiTestDouble.start('/api/v3');
});
afterAll(async () => {
  await ghe?.close();
});

describe('orgctl readiness fix --json, and its exit status', () => {
  it('--dry-run --json: one document with every file and its content, each targeted criterion before and after, nothing written', async () => {
    const dir = makeRepo(NODE_SERVICE, { origin: 'https://github.com/acme/shop.git' });
    const before = refs(dir);
    const res = await runCli(['readiness', 'fix', dir, '--dry-run', '--json'], NO_FORGE);
    expect(res.code, res.stderr).toBe(0);
    const j = JSON.parse(res.stdout) as FixJson;
    expect(refs(dir)).toBe(before);
    expect(j).toMatchObject({ dryRun: true, written: false, head: gitIn(dir, 'rev-parse', 'HEAD').trim(), stillFailing: [], regressions: [] });
    expect(j.delivery).toEqual({ kind: 'dry-run', branch: `orgctl/readiness-fix-${j.head.slice(0, 8)}` });
    const codeowners = j.files.find((f) => f.path === '.github/CODEOWNERS')!;
    expect(codeowners).toMatchObject({ generator: 'codeowners', criteria: ['codeowners'] });
    expect(codeowners.content).toMatch(/^\* t@x$/m);
    expect(j.plan.find((s) => s.generator === 'codeowners')).toEqual({
      generator: 'codeowners',
      action: 'write',
      files: ['.github/CODEOWNERS'],
      criteria: ['codeowners'],
    });
    for (const id of ['codeowners', 'pr_templates', 'env_template', 'agents_md'])
      expect(verdict(j, id)).toMatchObject({ id, before: 'fail', after: 'pass', awaitsForge: false });
    expect(j.after!.passRate).toBeGreaterThan(j.before.passRate);
    // The same document as --output json, the other commands' spelling.
    const same = await runCli(['readiness', 'fix', dir, '--dry-run', '--output', 'json'], NO_FORGE);
    // (The rationale of a criterion about commits may name the throw-away commit, whose hash holds the time.)
    const k = JSON.parse(same.stdout) as FixJson;
    expect([k.files, k.plan, k.delivery, k.criteria.map((c) => [c.id, c.before, c.after])]).toEqual([
      j.files,
      j.plan,
      j.delivery,
      j.criteria.map((c) => [c.id, c.before, c.after]),
    ]);
  });

  it('--json without --dry-run: the branch and commit it made, the files on it', async () => {
    const dir = makeRepo(NODE_SERVICE, { origin: 'https://github.com/acme/shop.git' });
    const res = await runCli(['readiness', 'fix', dir, '--json', '--branch', 'ready'], NO_FORGE);
    expect(res.code, res.stderr).toBe(0);
    const j = JSON.parse(res.stdout) as FixJson;
    expect(j).toMatchObject({ dryRun: false, written: true, delivery: { kind: 'branch', branch: 'ready', commit: gitIn(dir, 'rev-parse', 'ready').trim() } });
    const added = gitIn(dir, 'diff', '--name-only', 'HEAD', 'ready').trim().split('\n');
    expect(j.files.map((f) => f.path).sort()).toEqual(added.sort());
  });

  it('--open-pr --json on GitHub Enterprise: the pull request; a criterion awaiting the forge (Dependabot) is no failure', async () => {
    ghe.addRepo('acme/api', { 'README.md': '# api\n' });
    const dir = makeRepo(NODE_SERVICE, { origin: `http://${new URL(ghe.url).host}/acme/api.git` });
    const res = await runCli(['readiness', 'fix', dir, '--open-pr', '--json', '--branch', 'ready'], { GITHUB_TOKEN: 'ghp_x', GITHUB_API_URL: ghe.url });
    expect(res.code, res.stderr).toBe(0);
    const j = JSON.parse(res.stdout) as FixJson;
    expect(j.delivery).toMatchObject({ kind: 'pull-request', branch: 'ready', baseBranch: 'main', number: 42, url: 'https://ghe.acme.test/acme/api/pull/42' });
    expect(verdict(j, 'dependency_update_automation')).toMatchObject({ before: 'fail', after: 'fail', awaitsForge: true });
    expect(j.stillFailing).toEqual([]);
  });

  it('exits 1 when a targeted criterion still fails (a tracked .env: .env.example cannot fix secrets_management), dry run alike; the branch is still made', async () => {
    const dir = makeRepo({ ...NODE_SERVICE, '.env': 'DATABASE_URL=postgres://app:hunter2@db/app\n' }, { origin: 'https://github.com/acme/shop.git' });
    const dry = await runCli(['readiness', 'fix', dir, '--dry-run', '--only', 'env-example', '--json'], NO_FORGE);
    expect(dry.code).toBe(1);
    const j = JSON.parse(dry.stdout) as FixJson;
    expect(verdict(j, 'env_template')).toMatchObject({ before: 'fail', after: 'pass' });
    expect(verdict(j, 'secrets_management')).toMatchObject({ before: 'fail', after: 'fail' });
    expect(j.stillFailing).toEqual(['secrets_management']);
    expect(dry.stderr).toContain('Still failing after the change: secrets_management.');
    const res = await runCli(['readiness', 'fix', dir, '--only', 'env-example', '--branch', 'env'], NO_FORGE);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Still failing after the change: secrets_management.');
    expect(res.stdout).toMatch(/^Still failing after the change: secrets_management \(/m);
    expect(gitIn(dir, 'show', 'env:.env.example')).toContain('DATABASE_URL=\n');
  });
});
