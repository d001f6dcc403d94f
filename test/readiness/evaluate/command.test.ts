import { execFileSync } from 'node:child_process';

import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CRITERIA } from '../../../src/readiness/criteria.js';
import { runCli, startServer, type Server } from '../../helpers/cli.js';
import { orgInstallation } from '../../helpers/installation.js';
import { makeRepo } from './fixtures.js';
import { onCleanup } from '../../helpers/cleanup.js';

let server: Server;
let appUrl: string;
let key: string;
let repo: string;

beforeAll(async () => {
  const installed = await orgInstallation();
  const env = installed.env;
  key = installed.ownerKey;
  server = await startServer({ ...env, APP_PORT: '0' });
  onCleanup(() => server.stop());
  appUrl = /Application address \(readiness reports\) on (http:\/\/\S+)/.exec(server.output())![1]!;
  repo = makeRepo(
    {
      'package.json': JSON.stringify({ name: 'web', scripts: { test: 'vitest run', dev: 'vite' }, devDependencies: { vitest: '4.0.0' } }),
      'package-lock.json': '{}',
      'README.md': '# Web\n\n## Install\n\nnpm ci && npm run build\n',
      'src/a.test.ts': '',
      'eslint.config.js': 'export default [];',
    },
    { origin: 'git@github.com:Acme/Web.git' },
  );
}, 120_000);

describe('orgctl readiness evaluate', () => {
  it('prints the report JSON with all 84 criteria and exits 0', async () => {
    const res = await runCli(['readiness', 'evaluate', repo, '--json'], { GITHUB_TOKEN: '' });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout) as { repoUrl: string; report: Record<string, { numerator: number | null }>; evaluator: { name: string } };
    expect(report.repoUrl).toBe('git@github.com:Acme/Web.git');
    expect(Object.keys(report.report).sort()).toEqual(CRITERIA.map((c) => c.id).sort());
    expect(report.report.lint_config!.numerator).toBe(1);
    expect(report.evaluator.name).toBe('orgctl');
  });

  it('prints levels, pillar rates and failing criteria with their rationale', async () => {
    const res = await runCli(['readiness', 'evaluate', repo, '--repo-url', 'https://github.com/acme/other'], { GITHUB_TOKEN: '' });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Repository: https:\/\/github\.com\/acme\/other @ [0-9a-f]{12} \(main\)$/m);
    expect(res.stdout).toMatch(/^Level: \d \(80 % rule\) {3}Band level: \d {3}Pass rate: \d+ %$/m);
    expect(res.stdout).toMatch(/^ {2}Style & Validation +\d+\/\d+ +\d+ %$/m);
    expect(res.stdout).toMatch(/^ {2}L1 formatter 0\/1: none found in the repository; looked for Prettier config/m);
  });

  it('uploads a report the service accepts; the summary then shows the repository', async () => {
    const res = await runCli(['readiness', 'evaluate', repo, '--json', '--upload', '--url', appUrl, '--key', key], { GITHUB_TOKEN: '' });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/^Report [0-9a-f-]{36} stored for github\.com\/acme\/web\.$/m);
    const printed = JSON.parse(res.stdout) as { commitHash: string };
    const summary = await fetch(`${appUrl}/api/organization/agent-readiness-summary`, { headers: { authorization: `Bearer ${key}` } });
    expect(summary.status).toBe(200);
    const body = (await summary.json()) as { repositories: { repoId: string; latest: { commitHash: string; level: number } }[] };
    const web = body.repositories.find((r) => r.repoId === 'github.com/acme/web');
    expect(web?.latest.commitHash).toBe(printed.commitHash);
    expect(web?.latest.level).toBeGreaterThanOrEqual(1);
  });

  it('evaluates this repository itself: the report uploads and the summary shows it', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const res = await runCli(['readiness', 'evaluate', root, '--repo-url', 'https://github.com/orgctl/orgctl', '--upload', '--url', appUrl, '--key', key], {
      GITHUB_TOKEN: '',
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Level: \d \(80 % rule\)/m);
    expect(res.stdout).toMatch(/^Report [0-9a-f-]{36} stored for github\.com\/orgctl\/orgctl\.$/m);
    const summary = await fetch(`${appUrl}/api/organization/agent-readiness-summary`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await summary.json()) as { repositories: { repoId: string; latest: { passRate: number } }[] };
    expect(body.repositories.find((r) => r.repoId === 'github.com/orgctl/orgctl')?.latest.passRate).toBeGreaterThan(0.3);
  });

  it('a CI checkout whose origin holds an access token: the report, the summary and the upload leave the token out', async () => {
    const token = 'ghs_TOKEN1234567890abcdef';
    const ci = makeRepo({ 'README.md': '# CI\n' }, { origin: `https://x-access-token:${token}@github.com/Acme/Ci.git` });
    const res = await runCli(['readiness', 'evaluate', ci, '--json', '--upload', '--url', appUrl, '--key', key], { GITHUB_TOKEN: '' });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/^Report [0-9a-f-]{36} stored for github\.com\/acme\/ci\.$/m);
    expect(res.stdout + res.stderr).not.toContain(token);
    expect((JSON.parse(res.stdout) as { repoUrl: string }).repoUrl).toBe('https://github.com/Acme/Ci.git');
    const human = await runCli(['readiness', 'evaluate', ci], { GITHUB_TOKEN: '' });
    expect(human.stdout).toMatch(/^Repository: https:\/\/github\.com\/Acme\/Ci\.git @/m);
    expect(human.stdout).not.toContain(token);
    const listed = await fetch(`${appUrl}/api/organization/maturity-level-reports?repoId=github.com/acme/ci`, { headers: { authorization: `Bearer ${key}` } });
    const text = await listed.text();
    expect(text).toContain('https://github.com/Acme/Ci.git');
    expect(text).not.toContain(token);
  });

  it('an scp-like origin with a token as its user, or a --repo-url with one in its query: printed and uploaded without it', async () => {
    const token = 'ghp_SCPTOKEN1234567890';
    const ci = makeRepo({ 'README.md': '# Scp\n' }, { origin: `${token}@github.com:Acme/Scp.git` });
    const res = await runCli(['readiness', 'evaluate', ci, '--json', '--upload', '--url', appUrl, '--key', key], { GITHUB_TOKEN: '' });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout + res.stderr).not.toContain(token);
    expect((JSON.parse(res.stdout) as { repoUrl: string }).repoUrl).toBe('github.com:Acme/Scp.git');
    const human = await runCli(['readiness', 'evaluate', ci, '--repo-url', `git@github.com:Acme/Scp.git?token=${token}`], { GITHUB_TOKEN: '' });
    expect(human.stdout).toMatch(/^Repository: git@github\.com:Acme\/Scp\.git @/m);
    expect(human.stdout + human.stderr).not.toContain(token);
    const listed = await fetch(`${appUrl}/api/organization/maturity-level-reports?repoId=github.com/acme/scp`, { headers: { authorization: `Bearer ${key}` } });
    expect(await listed.text()).not.toContain(token);
  });

  it('exits 2 when the checkout has no origin and no --repo-url is given', async () => {
    const bare = makeRepo({ 'a.txt': 'x' });
    execFileSync('git', ['remote', 'remove', 'origin'], { cwd: bare });
    const res = await runCli(['readiness', 'evaluate', bare], {});
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('has no origin remote: pass --repo-url URL');
  });

  it('with --upload, an origin that is no repository URL the service takes (a local path) exits 2 suggesting --repo-url, before any report is printed', async () => {
    const local = makeRepo({ 'a.txt': 'x' });
    execFileSync('git', ['remote', 'set-url', 'origin', '/srv/git/app.git'], { cwd: local });
    const res = await runCli(['readiness', 'evaluate', local, '--upload', '--url', 'http://127.0.0.1:9', '--key', 'ock_unused'], {});
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('Cannot upload: the repository URL /srv/git/app.git must be a remote repository URL');
    expect(res.stderr).toContain('Pass --repo-url URL');
    // Without --upload the report is still printed.
    expect((await runCli(['readiness', 'evaluate', local], {})).code).toBe(0);
  });
});
