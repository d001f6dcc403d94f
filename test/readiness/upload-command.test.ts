import { writeFileSync } from 'node:fs';

import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

const PATH = '/api/organization/maturity-level-reports';
let env: Record<string, string>;
let server: Server;
let appUrl: string;
let key: string;
let dir: string;

beforeAll(async () => {
  dir = tempDir('orgctl-readiness-cli-');
  const installed = await orgInstallation();
  env = installed.env;
  key = installed.ownerKey;
  server = await startServer({ ...env, APP_PORT: '0' });
  onCleanup(() => server.stop());
  appUrl = /Application address \(readiness reports\) on (http:\/\/\S+)/.exec(server.output())![1]!;
}, 120_000);

const report = {
  repoUrl: 'git@github.com:Acme/Web.git',
  apps: { web: { description: 'Site' } },
  report: { ci: { numerator: 1, denominator: 1, rationale: 'CI runs' } },
};

describe('orgctl readiness upload', () => {
  it('sends a report file to the application address and prints the stored report', async () => {
    const file = path.join(dir, 'report.json');
    writeFileSync(file, JSON.stringify(report));
    const res = await runCli(['readiness', 'upload', file, '--url', appUrl, '--key', key, '--json'], {});
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const stored = JSON.parse(res.stdout) as { reportId: string; repoId: string };
    expect(stored).toMatchObject({ ...report, repoId: 'github.com/acme/web' });
    const listed = await fetch(`${appUrl}${PATH}?repoId=github.com/acme/web`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await listed.json()) as { reports: { reportId: string }[] }).reports.map((r) => r.reportId)).toEqual([stored.reportId]);
  });

  it('reads the address and key from ORGCTL_URL and ORGCTL_API_KEY, and the report from standard input', async () => {
    const res = await runCli(
      ['readiness', 'upload', '-'],
      { ORGCTL_URL: appUrl, ORGCTL_API_KEY: key },
      JSON.stringify({ ...report, repoUrl: 'https://github.com/acme/stdin' }),
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Report [0-9a-f-]{36} stored for github\.com\/acme\/stdin at \d{4}-/);
  });

  it('exits 1 and prints the paths the service refused', async () => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ ...report, report: { ci: { numerator: 2, denominator: 1, rationale: '' } } }));
    const res = await runCli(['readiness', 'upload', file, '--url', appUrl, '--key', key], {});
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^Error: .*\n[\s\S]*\(HTTP 400, request id [0-9a-f-]{36}, code validation_failed\)/);
    expect(res.stderr).toContain('/report/ci/numerator must be <= denominator');
  });

  it('exits 1 for a wrong key or a file that is not JSON, 3 for an unreachable service, 2 without a key', async () => {
    const file = path.join(dir, 'ok.json');
    writeFileSync(file, JSON.stringify(report));
    const wrongKey = await runCli(['readiness', 'upload', file, '--url', appUrl, '--key', 'ock_wrong'], {});
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('(HTTP 401');
    const notJson = path.join(dir, 'not.json');
    writeFileSync(notJson, 'repoUrl: x');
    const parse = await runCli(['readiness', 'upload', notJson, '--url', appUrl, '--key', key], {});
    expect(parse.code).toBe(1);
    expect(parse.stderr).toContain('Cannot read a JSON report');
    const down = await runCli(['readiness', 'upload', file, '--url', 'http://127.0.0.1:9', '--key', key], {});
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('Cannot reach http://127.0.0.1:9');
    const noKey = await runCli(['readiness', 'upload', file, '--url', appUrl], { ORGCTL_API_KEY: '' });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('ORGCTL_API_KEY');
  });

  it('serves readiness reports only on the application address when APP_PORT is set', async () => {
    const onApi = await fetch(`${server.url}${PATH}`, { headers: { authorization: `Bearer ${key}` } });
    expect(onApi.status).toBe(404);
  });
});
