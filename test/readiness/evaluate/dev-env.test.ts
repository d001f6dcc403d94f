import { expect, it } from 'vitest';
import { BARE_MACHINE, criterionCases, deps, evaluate, makeRepo, NODE_APP } from './fixtures.js';

const devcontainer = { '.devcontainer/devcontainer.json': '{\n  // Node 20\n  "image": "mcr.microsoft.com/devcontainers/typescript-node:20",\n}\n' };

criterionCases('Dev Environment', [
  { id: 'devcontainer', pass: { ...NODE_APP, ...devcontainer }, passNames: /\.devcontainer\/devcontainer\.json defines image mcr/, fail: NODE_APP, failNames: /no \.devcontainer\/devcontainer\.json/ },
  { id: 'env_template', pass: { ...NODE_APP, '.env.example': 'PORT=3000\n' }, passNames: /\.env\.example \(environment template\)/, fail: NODE_APP, failNames: /environment template/ },
  {
    id: 'local_services_setup',
    pass: { ...deps('pg'), 'compose.yaml': 'services:\n  db:\n    image: postgres\n' },
    passNames: /compose\.yaml \(compose file\)/,
    fail: deps('pg'),
    failNames: /documented local services/,
    skip: NODE_APP,
    skipNames: /no database, cache or broker dependency/,
  },
  {
    id: 'database_schema',
    pass: { ...deps('pg'), 'migrations/0001_init.sql': 'CREATE TABLE t (id int);' },
    passNames: /migrations\/0001_init\.sql \(migrations\)/,
    fail: deps('pg'),
    failNames: /migrations, schema definition/,
    skip: NODE_APP,
    skipNames: /no database driver or ORM in \./,
  },
]);

it('devcontainer_runnable: skipped without a devcontainer, and skipped when the devcontainer CLI is absent', async () => {
  const none = await evaluate(makeRepo(NODE_APP));
  expect(none.report.report.devcontainer_runnable).toMatchObject({ numerator: null, rationale: 'skipped: no devcontainer configuration to run' });
  const noCli = await evaluate(makeRepo({ ...NODE_APP, ...devcontainer }), { probe: BARE_MACHINE });
  expect(noCli.report.report.devcontainer_runnable).toMatchObject({ numerator: null, rationale: 'skipped: the devcontainer CLI is not on PATH of the evaluating machine' });
});
