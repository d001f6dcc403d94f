import { git } from '../../evaluate/git.js';
import type { Generator } from '../types.js';

/** The commits read per path: recent history says who maintains a directory today. */
const HISTORY = 1000;
/** Owners named per rule: the main authors, not everyone who ever touched it. */
const OWNERS = 3;
const BOT = /\[bot\]|^(dependabot|renovate|github-actions)\b|noreply@github\.com$/i;

/**
 * `@user` for a no-reply address of GitHub (`123+user@users.noreply.github.com`) or GitLab
 * (`123-user@users.noreply.gitlab.com`), else the e-mail, which both forges' CODEOWNERS accept.
 */
function ownerOf(email: string): string {
  const m = /^(?:\d+\+)?([A-Za-z0-9-]+)@users\.noreply\.github\.com$/i.exec(email) ?? /^(?:\d+-)?([A-Za-z0-9_.-]+)@users\.noreply\.gitlab\.com$/i.exec(email);
  return m ? `@${m[1]}` : email.toLowerCase();
}

/** The main authors of `pathspec` at HEAD (`.mailmap` applied), most commits first, ties by owner. */
async function mainAuthors(root: string, pathspec: string): Promise<string[]> {
  const log = await git(root, ['log', `--max-count=${HISTORY}`, '--no-merges', '--use-mailmap', '--format=%aN%x00%aE', 'HEAD', '--', pathspec], {
    allowFailure: true,
  });
  const counts = new Map<string, number>();
  for (const line of log.split('\n')) {
    const [name = '', email = ''] = line.split('\0');
    if (!email.includes('@') || BOT.test(name) || BOT.test(email)) continue;
    const owner = ownerOf(email);
    counts.set(owner, (counts.get(owner) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, OWNERS)
    .map(([o]) => o);
}

/**
 * `.github/CODEOWNERS` (`.gitlab/CODEOWNERS` on GitLab, which reads it there) from the history: the repository's main authors own everything, and each
 * application of a monorepo is owned by its own main authors when they differ (a later rule wins).
 */
export const codeowners = {
  id: 'codeowners',
  when: ['codeowners'],
  existing: /^(\.github\/|docs\/|\.gitlab\/)?CODEOWNERS$/,
  async generate(ctx) {
    const all = await mainAuthors(ctx.scan.root, '.');
    if (!all.length) return { nothing: 'the history names no author with an e-mail address' };
    const lines = [
      '# Owners review the changes to their paths; the last matching rule wins.',
      `# Derived by orgctl readiness fix from the main authors of the last ${HISTORY} commits (git log, .mailmap applied).`,
      '',
      `* ${all.join(' ')}`,
    ];
    for (const app of ctx.apps.filter((a) => a.path !== '.')) {
      const owners = await mainAuthors(ctx.scan.root, app.path);
      if (owners.length && owners.join(' ') !== all.join(' ')) lines.push(`/${app.path}/ ${owners.join(' ')}`);
    }
    return {
      files: [{ path: ctx.forge === 'gitlab' ? '.gitlab/CODEOWNERS' : '.github/CODEOWNERS', content: `${lines.join('\n')}\n` }],
      criteria: ['codeowners'],
    };
  },
} satisfies Generator;
