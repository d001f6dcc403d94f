import { afterAll, beforeAll, expect, it } from 'vitest';
import { criterionCases, evaluate, makeRepo, NODE_APP } from './fixtures.js';
import { ForgeDouble, healthyForge, neglectedForge } from './forge-double.js';

criterionCases('Task Discovery (offline)', [
  {
    id: 'issue_templates',
    pass: { ...NODE_APP, '.github/ISSUE_TEMPLATE/bug.yml': 'name: Bug\n' },
    passNames: /issue templates: \.github\/ISSUE_TEMPLATE\/bug\.yml/,
    fail: { ...NODE_APP, '.github/ISSUE_TEMPLATE/config.yml': 'blank_issues_enabled: false\n' },
    failNames: /no issue template/,
  },
  {
    id: 'issue_labeling_system',
    pass: { ...NODE_APP, '.github/labels.yml': '- name: "priority: high"\n- name: "type: bug"\n' },
    passNames: /\.github\/labels\.yml defines 2 labels covering priority, type/,
    fail: NODE_APP,
    failNames: /labels not read: no GitHub token/,
  },
  {
    id: 'pr_templates',
    pass: { ...NODE_APP, '.github/pull_request_template.md': '## Description\n\n## How was it tested\n' },
    passNames: /\.github\/pull_request_template\.md has description\/testing\/context sections/,
    fail: { ...NODE_APP, '.github/pull_request_template.md': 'Thanks!\n' },
    failNames: /lacks description, testing or context sections/,
  },
]);

let healthy: ForgeDouble;
let neglected: ForgeDouble;
beforeAll(async () => {
  healthy = await ForgeDouble.start(healthyForge());
  neglected = await ForgeDouble.start(neglectedForge());
});
afterAll(async () => {
  await healthy.close();
  await neglected.close();
});
const on = async (f?: ForgeDouble) =>
  (await evaluate(makeRepo(NODE_APP, { origin: f?.repoUrl }), f ? { githubToken: 't', githubApiUrl: f.apiUrl } : {})).report.report;

it('issue_labeling_system reads the labels through the GitHub API with a token', async () => {
  expect((await on(healthy)).issue_labeling_system).toMatchObject({ numerator: 1, rationale: '3 labels on acme/app cover priority, type, area' });
  expect((await on(neglected)).issue_labeling_system).toMatchObject({
    numerator: 0,
    rationale: expect.stringMatching(/1 labels on acme\/app cover no category/),
  });
});

it('backlog_health: passes on labelled descriptive issues, fails on a stale unlabelled backlog, skipped without a token', async () => {
  expect((await on(healthy)).backlog_health).toMatchObject({
    numerator: 1,
    rationale: expect.stringMatching(/1 of 1 open issues on acme\/app have a descriptive title and a label; 0 untouched/),
  });
  expect((await on(neglected)).backlog_health).toMatchObject({
    numerator: 0,
    rationale: expect.stringMatching(/0 of 1 open issues .* 1 untouched for a year/),
  });
  expect((await on()).backlog_health).toMatchObject({ numerator: null, rationale: expect.stringMatching(/^skipped: no GitHub token/) });
});
