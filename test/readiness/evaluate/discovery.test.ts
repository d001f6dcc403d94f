import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CRITERIA } from '../../../src/readiness/criteria.js';
import { ReportUpload } from '../../../src/readiness/schemas.js';
import { stableJson, uploadBody } from '../../../src/readiness/evaluate/report.js';
import { Value } from '@sinclair/typebox/value';
import { evaluate, makeRepo, writeFiles, type Files } from './fixtures.js';

const json = (v: unknown) => JSON.stringify(v, null, 2);
const appDenominators = (report: Record<string, { denominator: number }>) =>
  new Set(CRITERIA.filter((c) => c.scope === 'application').map((c) => report[c.id]!.denominator));

const monorepos: [string, Files, string[]][] = [
  [
    'npm workspaces (a private shared package is not an application)',
    {
      'package.json': json({ name: 'root', private: true, workspaces: ['apps/*', 'packages/*'] }),
      'apps/web/package.json': json({ name: 'web', private: true, scripts: { dev: 'vite' } }),
      'apps/api/package.json': json({ name: 'api', private: true, scripts: { start: 'node server.js' } }),
      'packages/shared/package.json': json({ name: 'shared', private: true }),
      'packages/cli/package.json': json({ name: '@acme/cli', bin: { acme: 'cli.js' } }),
    },
    ['apps/api', 'apps/web', 'packages/cli'],
  ],
  [
    'pnpm-workspace.yaml',
    {
      'package.json': json({ name: 'root', private: true }),
      'pnpm-workspace.yaml': "packages:\n  - 'services/*'\n  - '!services/legacy'\n",
      'services/a/package.json': json({ name: 'a' }),
      'services/b/package.json': json({ name: 'b' }),
      'services/legacy/package.json': json({ name: 'legacy' }),
    },
    ['services/a', 'services/b'],
  ],
  [
    'go.work',
    {
      'go.work': 'go 1.22\n\nuse (\n\t./cmd/server\n\t./cmd/worker\n)\n',
      'cmd/server/go.mod': 'module x/server\n',
      'cmd/worker/go.mod': 'module x/worker\n',
      'cmd/server/main.go': 'package main\n',
    },
    ['cmd/server', 'cmd/worker'],
  ],
  [
    'Cargo workspace',
    {
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\nexclude = ["crates/example"]\n',
      'crates/core/Cargo.toml': '[package]\nname="core"\n',
      'crates/cli/Cargo.toml': '[package]\nname="cli"\n',
      'crates/example/Cargo.toml': '[package]\nname="ex"\n',
    },
    ['crates/cli', 'crates/core'],
  ],
  [
    'Maven multi-module',
    {
      'pom.xml': '<project><modules>\n  <module>api</module>\n  <module>batch</module>\n</modules></project>\n',
      'api/pom.xml': '<project/>',
      'batch/pom.xml': '<project/>',
      'api/src/main/java/A.java': 'class A {}',
    },
    ['api', 'batch'],
  ],
  [
    'Gradle settings.gradle.kts',
    { 'settings.gradle.kts': 'rootProject.name = "x"\ninclude(":app", ":lib:core")\n', 'app/build.gradle.kts': '', 'lib/core/build.gradle.kts': '' },
    ['app', 'lib/core'],
  ],
  [
    'Python packages with their own pyproject',
    {
      'pyproject.toml': '[tool.ruff]\n',
      'svc/ingest/pyproject.toml': '[project]\nname="ingest"\n',
      'svc/report/pyproject.toml': '[project]\nname="report"\n',
      'examples/demo/pyproject.toml': '[project]\nname="demo"\n',
    },
    ['svc/ingest', 'svc/report'],
  ],
];

describe('application discovery', () => {
  for (const [name, files, apps] of monorepos) {
    it(`${name}: finds ${apps.join(', ')} and every application criterion has denominator ${apps.length}`, async () => {
      const { report } = await evaluate(makeRepo(files));
      expect(Object.keys(report.apps)).toEqual(apps);
      expect(appDenominators(report.report)).toEqual(new Set([apps.length]));
      expect(CRITERIA.filter((c) => c.scope === 'repository').every((c) => report.report[c.id]!.denominator === 1)).toBe(true);
      expect(report.report.monorepo_tooling!.numerator).not.toBeNull();
    });
  }

  it('a repository without workspaces is one application at its root, described by its languages', async () => {
    const { report } = await evaluate(makeRepo({ 'main.go': 'package main\n', 'go.mod': 'module x\n', 'lib/util.rb': '' }));
    expect(Object.keys(report.apps)).toEqual(['.']);
    expect(report.apps['.']!.description).toMatch(/\(go, ruby\)$/);
    expect(appDenominators(report.report)).toEqual(new Set([1]));
  });

  it('credits each application of a monorepo separately, naming each in the rationale', async () => {
    const { report } = await evaluate(makeRepo({ ...monorepos[0]![1], 'apps/web/src/a.test.ts': '' }));
    expect(report.report.unit_tests_exist).toMatchObject({ numerator: 1, denominator: 3 });
    expect(report.report.unit_tests_exist!.rationale).toMatch(/^1\/3 \(passes in apps\/web; fails in apps\/api, packages\/cli\): apps\/web: 1 test files/);
  });
});

describe('the report', () => {
  it('holds every criterion of the model, in id order, and its upload body passes the upload schema', async () => {
    const { report } = await evaluate(makeRepo({ 'package.json': '{"name":"x"}' }));
    expect(Object.keys(report.report)).toEqual(CRITERIA.map((c) => c.id).sort());
    expect(report.evaluator).toMatchObject({ name: 'orgctl' });
    expect(Value.Check(ReportUpload, uploadBody(report))).toBe(true);
    // The schema refuses unknown fields, which is why evaluator is left out of the upload.
    expect(Value.Check(ReportUpload, report)).toBe(false);
    for (const [id, c] of Object.entries(report.report)) expect(c.rationale.length, id).toBeLessThanOrEqual(500);
    expect(report).toMatchObject({ repoUrl: 'https://github.com/acme/app.git', branch: 'main', hasLocalChanges: false, hasNonRemoteCommits: true });
    expect(report.commitHash).toMatch(/^[0-9a-f]{40}$/);
  });

  it('is byte-identical across runs and leaves the checkout exactly as it was', async () => {
    const dir = makeRepo({
      'package.json': '{"name":"x","workspaces":["a","b"]}',
      'a/package.json': '{"name":"a"}',
      'b/package.json': '{"name":"b"}',
      'README.md': '# x\n\nnpm ci\n',
    });
    writeFiles(dir, { 'untracked.txt': 'not committed' });
    const before = {
      status: execFileSync('git', ['status', '--porcelain', '--ignored'], { cwd: dir, encoding: 'utf8' }),
      files: readdirSync(dir, { recursive: true }).map(String).sort(),
    };
    const first = stableJson((await evaluate(dir)).report);
    const second = stableJson((await evaluate(dir)).report);
    expect(second).toBe(first);
    expect(JSON.parse(first)).toMatchObject({ hasLocalChanges: true });
    expect(execFileSync('git', ['status', '--porcelain', '--ignored'], { cwd: dir, encoding: 'utf8' })).toBe(before.status);
    expect(readdirSync(dir, { recursive: true }).map(String).sort()).toEqual(before.files);
  });
});
