import { expect, it } from 'vitest';
import { commit, criterionCases, deps, evaluate, makeRepo, NODE_APP, pkg, workflow } from './fixtures.js';

const agents = 'Build with `npm run build`, test with `npm test`. Conventions: small files, kebab-case names, one module per job.\n';

criterionCases('Documentation', [
  {
    id: 'agents_md',
    pass: { ...NODE_APP, 'AGENTS.md': agents },
    passNames: /AGENTS\.md(:\d+)? \(\d+ characters\) covers build, test/,
    fail: { ...NODE_APP, 'CLAUDE.md': agents },
    failNames: /CLAUDE\.md found but no AGENTS\.md/,
  },
  {
    id: 'readme',
    pass: { ...NODE_APP, 'README.md': '# App\n\n## Install\n\nnpm ci\n' },
    passNames: /README\.md has setup\/usage instructions(:\d+)? \("Install"\)/,
    fail: { ...NODE_APP, 'README.md': '# App\n\nAn app.\n' },
    failNames: /README\.md has no setup or usage section/,
  },
  {
    id: 'automated_doc_generation',
    pass: { ...NODE_APP, 'typedoc.json': '{}' },
    passNames: /typedoc\.json(:\d+)? \(documentation generator config\)/,
    fail: NODE_APP,
    failNames: /documentation generator/,
  },
  {
    id: 'skills',
    pass: { ...NODE_APP, '.factory/skills/release/SKILL.md': '---\nname: release\ndescription: Cut a release\n---\nRun npm version.\n' },
    passNames: /valid skill \.factory\/skills\/release\/SKILL\.md/,
    fail: { ...NODE_APP, '.claude/skills/release/SKILL.md': '---\nname: release\n---\n' },
    failNames: /no valid skill: \.claude\/skills\/release\/SKILL\.md lack/,
  },
  {
    id: 'api_schema_docs',
    pass: { ...deps('express'), 'openapi.yaml': 'openapi: 3.1.0\n' },
    passNames: /openapi\.yaml(:\d+)? \(API schema file\)/,
    fail: deps('express'),
    failNames: /API schema file/,
    skip: NODE_APP,
    skipNames: /not an API service/,
  },
  {
    id: 'service_flow_documented',
    pass: { ...NODE_APP, 'docs/architecture.md': '# How it fits\n' },
    passNames: /docs\/architecture\.md(:\d+)? \(architecture document\)/,
    fail: NODE_APP,
    failNames: /architecture document/,
  },
  {
    id: 'agents_md_validation',
    pass: { ...NODE_APP, 'AGENTS.md': agents, ...workflow('npx markdown-link-check AGENTS.md') },
    passNames: /ci\.yml(:\d+)? \(AGENTS\.md checked in CI/,
    fail: { ...NODE_APP, 'AGENTS.md': agents },
    failNames: /AGENTS\.md checked in CI/,
  },
]);

it('documentation_freshness: passes when README.md changed within 180 days of HEAD, fails naming the age otherwise', async () => {
  const fresh = makeRepo({ ...NODE_APP, 'README.md': '# App\n' }, { date: '2025-01-01T00:00:00Z' });
  commit(fresh, { 'src/x.ts': '' }, { date: '2025-03-01T00:00:00Z' });
  expect((await evaluate(fresh)).report.report.documentation_freshness).toMatchObject({
    numerator: 1,
    rationale: expect.stringMatching(/README\.md last changed in [0-9a-f]+, 59 days before HEAD/),
  });
  const stale = makeRepo({ ...NODE_APP, 'README.md': '# App\n' }, { date: '2024-01-01T00:00:00Z' });
  commit(stale, { 'src/x.ts': '' }, { date: '2025-01-01T00:00:00Z' });
  expect((await evaluate(stale)).report.report.documentation_freshness).toMatchObject({
    numerator: 0,
    rationale: expect.stringMatching(/366 days before HEAD \(more than 180\)/),
  });
  const none = makeRepo(pkg({}));
  expect((await evaluate(none)).report.report.documentation_freshness).toMatchObject({
    numerator: 0,
    rationale: expect.stringMatching(/none of README\.md, AGENTS\.md, CONTRIBUTING\.md exists/),
  });
});
