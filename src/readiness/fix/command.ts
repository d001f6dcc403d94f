import type { ApiCommand } from '../../cli/api/command.js';
import { GENERATOR_IDS } from './generators/ids.js';

export const readinessFix: ApiCommand = {
  name: 'readiness fix',
  remote: false,
  summary:
    'Write the files that make failing readiness criteria pass (CODEOWNERS, PR and issue templates, Dependabot or Renovate, ' +
    '.env.example, AGENTS.md, a dev container, .editorconfig) on a new branch; never overwrites a file.',
  positionals: [{ name: 'DIR', description: 'The checkout to fix (default: the current directory)', optional: true }],
  flags: {
    'dry-run': { type: 'boolean', description: 'Print the plan and the diff of the files it would write; change nothing' },
    branch: { type: 'string', value: 'NAME', description: 'The branch to create (default: orgctl/readiness-fix-<first 8 hex of HEAD>)' },
    'open-pr': {
      type: 'boolean',
      description: 'Push the branch to the repository and open a pull request through the CI automation hosts (GitHub, GitHub Enterprise, plain git)',
    },
    base: { type: 'string', value: 'BRANCH', description: "The pull request's base branch (default: the remote's default branch)" },
    only: { type: 'string', value: 'IDS', description: `Run only these generators, comma-separated: ${GENERATOR_IDS.join(', ')}` },
    'repo-url': { type: 'string', value: 'URL', description: 'The repository to evaluate and open the pull request on (default: the origin remote)' },
    'github-token': { type: 'string', value: 'TOKEN', description: 'Token for the forge checks and for GitHub pull requests (default: GITHUB_TOKEN)' },
    json: { type: 'boolean', description: 'Print one JSON document (plan, files, criteria before and after, branch or pull request) instead of the text' },
  },
  outputs: ['table', 'json'],
  // The generators, the evaluator and the hosts are loaded to run, not to list the command.
  run: async (ctx) => (await import('./run.js')).runFix(ctx),
};
