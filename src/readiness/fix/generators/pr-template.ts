import { commandsOf } from '../toolchain.js';
import type { Generator } from '../types.js';

/**
 * A pull request template whose testing checklist names the repository's own commands; on GitLab
 * the merge request template GitLab applies by default (`.gitlab/merge_request_templates/Default.md`).
 */
export const prTemplate = {
  id: 'pr-template',
  when: ['pr_templates'],
  existing: /^((\.github\/|docs\/)?(pull_request_template\.md|PULL_REQUEST_TEMPLATE\/.+)|\.gitlab\/merge_request_templates\/.+)$/i,
  async generate(ctx) {
    const checks: string[] = [];
    for (const app of ctx.apps) {
      const c = await commandsOf(ctx, app);
      const where = app.path === '.' ? '' : ` (in \`${app.path}\`)`;
      for (const cmd of [c.lint, c.typecheck, c.test]) if (cmd) checks.push(`- [ ] \`${cmd}\` passes${where}`);
    }
    if (!checks.length) checks.push('- [ ] The change was tried by hand (say how below)');
    const content = [
      '## Description',
      '',
      '<!-- What changes, and what a reviewer should look at first. -->',
      '',
      '## Context',
      '',
      '<!-- Why: the issue it closes (Closes #123), the problem or the decision behind it. -->',
      '',
      '## Testing',
      '',
      ...checks,
      '- [ ] New behaviour has a test, or the description says why not',
      '',
    ].join('\n');
    const file = ctx.forge === 'gitlab' ? '.gitlab/merge_request_templates/Default.md' : '.github/pull_request_template.md';
    return { files: [{ path: file, content }], criteria: ['pr_templates'] };
  },
} satisfies Generator;
