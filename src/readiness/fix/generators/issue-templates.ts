import type { Generator } from '../types.js';

const bug = (apps: string[]) => `name: Bug report
description: Something does not work as documented
labels: [bug]
body:
  - type: textarea
    id: what-happened
    attributes:
      label: What happened
      description: What you did, what you expected, and what happened instead.
    validations:
      required: true
  - type: textarea
    id: reproduce
    attributes:
      label: Steps to reproduce
      placeholder: |
        1.
        2.
    validations:
      required: true
${
  apps.length > 1
    ? `  - type: dropdown
    id: area
    attributes:
      label: Where
      options:
${apps.map((a) => `        - ${JSON.stringify(a)}`).join('\n')}
    validations:
      required: true
`
    : ''
}  - type: input
    id: version
    attributes:
      label: Version or commit
`;

const feature = `name: Feature request
description: Something the project should do that it does not
labels: [enhancement]
body:
  - type: textarea
    id: problem
    attributes:
      label: The problem
      description: What you are trying to do, and what stands in the way today.
    validations:
      required: true
  - type: textarea
    id: proposal
    attributes:
      label: What would solve it
  - type: textarea
    id: alternatives
    attributes:
      label: Alternatives considered
`;

/** GitLab's issue templates are Markdown (it has no issue forms): the same two, as sections to fill in. */
const gitlabBug = (apps: string[]) =>
  [
    '## What happened',
    '',
    '<!-- What you did, what you expected, and what happened instead. -->',
    '',
    '## Steps to reproduce',
    '',
    '1.',
    '2.',
    '',
    ...(apps.length > 1 ? ['## Where', '', ...apps.map((a) => `- [ ] \`${a}\``), ''] : []),
    '## Version or commit',
    '',
    '/label ~bug',
    '',
  ].join('\n');

const gitlabFeature = [
  '## The problem',
  '',
  '<!-- What you are trying to do, and what stands in the way today. -->',
  '',
  '## What would solve it',
  '',
  '## Alternatives considered',
  '',
  '/label ~enhancement',
  '',
].join('\n');

/** Two GitHub issue forms (bug, feature), or GitLab Markdown templates; in a monorepo the bug report asks which application. */
export const issueTemplates = {
  id: 'issue-templates',
  when: ['issue_templates'],
  existing: /^(\.github\/ISSUE_TEMPLATE\/(bug_report|feature_request)\.(md|ya?ml)|\.github\/ISSUE_TEMPLATE\.md|\.gitlab\/issue_templates\/.+)$/i,
  async generate(ctx) {
    const apps = ctx.apps.map((a) => a.path).filter((p) => p !== '.');
    if (ctx.forge === 'gitlab')
      return {
        files: [
          { path: '.gitlab/issue_templates/Bug.md', content: gitlabBug(apps) },
          { path: '.gitlab/issue_templates/Feature.md', content: gitlabFeature },
        ],
        criteria: ['issue_templates'],
      };
    return {
      files: [
        { path: '.github/ISSUE_TEMPLATE/bug_report.yml', content: bug(apps) },
        { path: '.github/ISSUE_TEMPLATE/feature_request.yml', content: feature },
      ],
      criteria: ['issue_templates'],
    };
  },
} satisfies Generator;
