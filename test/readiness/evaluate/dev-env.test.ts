import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { BARE_MACHINE, criterionCases, deps, evaluate, makeRepo, NODE_APP } from './fixtures.js';

const devcontainer = { '.devcontainer/devcontainer.json': '{\n  // Node 20\n  "image": "mcr.microsoft.com/devcontainers/typescript-node:20",\n}\n' };

criterionCases('Dev Environment', [
  {
    id: 'devcontainer',
    pass: { ...NODE_APP, ...devcontainer },
    passNames: /\.devcontainer\/devcontainer\.json defines image mcr/,
    fail: NODE_APP,
    failNames: /no \.devcontainer\/devcontainer\.json/,
  },
  {
    id: 'env_template',
    pass: { ...NODE_APP, '.env.example': 'PORT=3000\n' },
    passNames: /\.env\.example(:\d+)? \(environment template\)/,
    fail: NODE_APP,
    failNames: /environment template/,
  },
  {
    id: 'local_services_setup',
    pass: { ...deps('pg'), 'compose.yaml': 'services:\n  db:\n    image: postgres\n' },
    passNames: /compose\.yaml(:\d+)? \(compose file\)/,
    fail: deps('pg'),
    failNames: /documented local services/,
    skip: NODE_APP,
    skipNames: /no database, cache or broker dependency/,
  },
  {
    id: 'database_schema',
    pass: { ...deps('pg'), 'migrations/0001_init.sql': 'CREATE TABLE t (id int);' },
    passNames: /migrations\/0001_init\.sql(:\d+)? \(migrations\)/,
    fail: deps('pg'),
    failNames: /Alembic migrations, Flyway migrations, Liquibase changelog, Prisma schema/,
    skip: NODE_APP,
    skipNames: /no database driver, ORM or migrations in \./,
  },
]);

it('devcontainer_runnable: skipped without a devcontainer, and skipped when the devcontainer CLI is absent', async () => {
  const none = await evaluate(makeRepo(NODE_APP));
  expect(none.report.report.devcontainer_runnable).toMatchObject({ numerator: null, rationale: 'skipped: no devcontainer configuration to run' });
  const noCli = await evaluate(makeRepo({ ...NODE_APP, ...devcontainer }), { probe: BARE_MACHINE });
  expect(noCli.report.report.devcontainer_runnable).toMatchObject({
    numerator: null,
    rationale: 'skipped: the devcontainer CLI is not on the PATH of the evaluating machine (a property of the machine, not of .devcontainer/devcontainer.json)',
  });
});

it('devcontainer_runnable: with the devcontainer CLI present, passes when it reads the configuration and fails when it refuses', async () => {
  // A stand-in for the devcontainer CLI on PATH, which this machine may not have.
  const bin = mkdtempSync(path.join(tmpdir(), 'orgctl-devcontainer-cli-'));
  const withCli = { ...BARE_MACHINE, devcontainerCli: async () => true };
  const oldPath = process.env.PATH;
  try {
    process.env.PATH = `${bin}${path.delimiter}${oldPath}`;
    writeFileSync(path.join(bin, 'devcontainer'), '#!/bin/sh\n[ "$1" = read-configuration ] && [ -f "$3/.devcontainer/devcontainer.json" ]\n', { mode: 0o755 });
    const ok = await evaluate(makeRepo({ ...NODE_APP, ...devcontainer }), { probe: withCli });
    expect(ok.report.report.devcontainer_runnable).toMatchObject({
      numerator: 1,
      rationale: expect.stringMatching(/devcontainer read-configuration accepts \.devcontainer\/devcontainer\.json/),
    });
    writeFileSync(path.join(bin, 'devcontainer'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const refused = await evaluate(makeRepo({ ...NODE_APP, ...devcontainer }), { probe: withCli });
    expect(refused.report.report.devcontainer_runnable).toMatchObject({
      numerator: 0,
      rationale: 'devcontainer read-configuration refuses .devcontainer/devcontainer.json',
    });
  } finally {
    process.env.PATH = oldPath;
    rmSync(bin, { recursive: true, force: true });
  }
});
