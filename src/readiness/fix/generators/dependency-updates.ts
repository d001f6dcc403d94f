import path from 'node:path';
import type { FixContext, Generator } from '../types.js';

/** Days a new release waits before an update proposes it: time for a bad or malicious release to be pulled. */
const RELEASE_AGE_DAYS = 7;

/** Dependabot's ecosystem names, by the file that shows each; Renovate finds the same ecosystems itself. */
const ECOSYSTEMS: [string, RegExp][] = [
  ['npm', /(^|\/)package\.json$/],
  ['pip', /(^|\/)(requirements[^/]*\.txt|pyproject\.toml|Pipfile|setup\.py)$/],
  ['gomod', /(^|\/)go\.mod$/],
  ['cargo', /(^|\/)Cargo\.toml$/],
  ['maven', /(^|\/)pom\.xml$/],
  ['gradle', /(^|\/)build\.gradle(\.kts)?$/],
  ['bundler', /(^|\/)Gemfile$/],
  ['composer', /(^|\/)composer\.json$/],
  ['swift', /(^|\/)Package\.swift$/],
  ['docker', /(^|\/)(Dockerfile|Containerfile)$/],
  ['github-actions', /^\.github\/workflows\/[^/]+\.ya?ml$/],
];

/** Examples and fixtures hold manifests nobody deploys: updating them is noise. */
const NOT_OWN = /(^|\/)(examples?|demos?|fixtures?|testdata|test|tests|__tests__|samples?|docs?)\//;

const dirOf = (f: string) => `/${path.posix.dirname(f) === '.' ? '' : path.posix.dirname(f)}`;

/** Each ecosystem with the directories holding its manifests; npm workspace members are updated from the root. */
function ecosystemsOf(ctx: FixContext): { ecosystem: string; directories: string[] }[] {
  const found = [];
  for (const [ecosystem, re] of ECOSYSTEMS) {
    if (ecosystem === 'github-actions') {
      if (ctx.scan.files.some((f) => re.test(f))) found.push({ ecosystem, directories: ['/'] });
      continue;
    }
    let files = ctx.scan.files.filter((f) => re.test(f) && !NOT_OWN.test(f));
    if (ecosystem === 'npm' && files.includes('package.json')) {
      // A lockfile next to a member's manifest makes it its own project, outside the root's workspace.
      files = files.filter(
        (f) => f === 'package.json' || ctx.scan.files.some((l) => /(package-lock\.json|yarn\.lock|pnpm-lock\.yaml)$/.test(l) && dirOf(l) === dirOf(f)),
      );
    }
    const directories = [...new Set(files.map(dirOf))].sort();
    if (directories.length) found.push({ ecosystem, directories });
  }
  return found;
}

function dependabot(found: ReturnType<typeof ecosystemsOf>): string {
  const lines = [
    '# Derived by orgctl readiness fix from the manifests in the repository.',
    `# cooldown: a release is proposed ${RELEASE_AGE_DAYS} days after it is published, not the day it appears.`,
    'version: 2',
    'updates:',
  ];
  for (const { ecosystem, directories } of found)
    for (const directory of directories)
      lines.push(
        `  - package-ecosystem: ${ecosystem}`,
        `    directory: ${JSON.stringify(directory)}`,
        '    schedule:',
        '      interval: weekly',
        '    cooldown:',
        `      default-days: ${RELEASE_AGE_DAYS}`,
        '    groups:',
        '      minor-and-patch:',
        '        update-types: [minor, patch]',
      );
  return `${lines.join('\n')}\n`;
}

function renovate(found: ReturnType<typeof ecosystemsOf>): string {
  const config = {
    $schema: 'https://docs.renovatebot.com/renovate-schema.json',
    extends: ['config:recommended'],
    schedule: ['before 6am on monday'],
    minimumReleaseAge: `${RELEASE_AGE_DAYS} days`,
    packageRules: [{ matchUpdateTypes: ['minor', 'patch'], groupName: 'minor and patch updates' }],
    // What the repository holds today, for the reader; Renovate detects the managers itself.
    description: [`Ecosystems found by orgctl readiness fix: ${found.map((f) => f.ecosystem).join(', ')}`],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * Dependabot for a GitHub repository (it runs nowhere else), Renovate for any other forge; both
 * with a waiting period before a new release is proposed (min_release_age).
 */
export const dependencyUpdates = {
  id: 'dependency-updates',
  when: ['dependency_update_automation'],
  existing: /^(\.github\/dependabot\.ya?ml|renovate\.json5?|\.renovaterc(\.json5?)?|\.github\/renovate\.json5?|\.gitlab\/renovate\.json5?)$/,
  async generate(ctx) {
    if (/"renovate"\s*:/.test((await ctx.scan.read('package.json')) ?? '')) return { nothing: 'package.json already configures Renovate' };
    const found = ecosystemsOf(ctx);
    if (!found.length) return { nothing: 'no dependency manifest or workflow to keep up to date' };
    const file = ctx.forge === 'github' ? { path: '.github/dependabot.yml', content: dependabot(found) } : { path: 'renovate.json', content: renovate(found) };
    return { files: [file], criteria: ['dependency_update_automation', 'min_release_age'], awaits: ['dependency_update_automation'] };
  },
} satisfies Generator;
