import type { App } from './apps.js';
import { fail, pass, type CheckContext, type Outcome } from './types.js';
import { anyOf } from './patterns.js';
import { ciCommands, lineAt } from './ci-config.js';

/** One kind of evidence: a file whose path matches, and optionally whose text matches too. */
export interface Rule {
  file: RegExp;
  content?: RegExp;
  /** What the evidence is, as the rationale names it (`ESLint config`). */
  what: string;
  /** Match only what CI executes (see ci-config.ts), not names, titles or comments. */
  commands?: boolean;
}

/** At most this many files are read for one rule, so a huge repository costs the same as a large one. */
const MAX_FILES_PER_RULE = 4000;

export const CI_FILE =
  /^(\.github\/workflows\/[^/]+\.ya?ml|\.gitlab-ci\.yml|\.gitlab\/ci\/.+\.ya?ml|\.circleci\/config\.ya?ml|azure-pipelines\.ya?ml|Jenkinsfile|bitbucket-pipelines\.yml|\.buildkite\/[^/]+\.ya?ml)$/;
export const MANIFEST = anyOf(
  [
    /package\.json/,
    /pyproject\.toml/,
    /requirements[^/]*\.(txt|in)/,
    /setup\.(py|cfg)/,
    /Pipfile/,
    /go\.mod/,
    /Cargo\.toml/,
    /pom\.xml/,
    /build\.gradle(\.kts)?/,
    /Gemfile/,
    /Package\.swift/,
    /Podfile/,
    /Cartfile/,
    /CMakeLists\.txt/,
    /conanfile\.(txt|py)/,
    /vcpkg\.json/,
  ],
  { before: /(^|\/)/, after: /$/ },
);
export const DOC_FILE = /^(README[^/]*|AGENTS\.md|CONTRIBUTING[^/]*|docs?\/.+\.(md|mdx|rst|txt|adoc))$|\/README[^/]*$/i;
export const SOURCE_FILE = /\.(ts|tsx|mts|js|jsx|mjs|cjs|py|go|rs|java|kt|rb|c|cc|cpp|h|hpp|cs|php|swift|scala|ex|exs)$/;
/** Java and Kotlin build files, where JVM tools are configured as plugins. */
export const JVM_BUILD = /(^|\/)(pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|gradle\/libs\.versions\.toml)$/;
export const HOOK_FILE = /^(\.pre-commit-config\.ya?ml|\.husky\/[^/]+|lefthook\.ya?ml|\.lefthook\.ya?ml|\.lintstagedrc[^/]*|lint-staged\.config\.[cm]?js)$/;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A dependency (or tool) name as a whole word in a manifest or config: `pino` but not `pinot`. */
export const word = (...names: string[]) => new RegExp(`(^|[^A-Za-z0-9_-])(${names.map(escape).join('|')})($|[^A-Za-z0-9_-])`, 'im');

/** A dependency in any manifest of the files searched. */
export const dep = (what: string, ...names: string[]): Rule => ({ file: MANIFEST, content: word(...names), what });
/** A file whose path alone is the evidence. */
export const file = (what: string, re: RegExp): Rule => ({ file: re, what });
/** A mention in CI configuration. */
export const ci = (what: string, content: RegExp): Rule => ({ file: CI_FILE, content, what, commands: true });
/** A mention in the documentation (README, AGENTS.md, CONTRIBUTING, docs/). */
export const doc = (what: string, content: RegExp): Rule => ({ file: DOC_FILE, content, what });

// Checks ask the same path questions of the same file lists many times (once per rule, per
// application, per criterion); remembering the answers keeps a 10,000-file monorepo fast.
const matchCache = new WeakMap<readonly string[], Map<RegExp, readonly string[]>>();

function matching(files: readonly string[], re: RegExp): readonly string[] {
  let byRe = matchCache.get(files);
  if (!byRe) matchCache.set(files, (byRe = new Map()));
  let hit = byRe.get(re);
  if (!hit) byRe.set(re, (hit = files.filter((f) => re.test(f))));
  return hit;
}

/** The first piece of evidence in `files`, as `path (what)`: rules in order, files sorted. */
export async function firstEvidence(ctx: Pick<CheckContext, 'scan'>, files: readonly string[], rules: Rule[]): Promise<string | undefined> {
  for (const rule of rules) {
    let read = 0;
    for (const f of matching(files, rule.file)) {
      if (!rule.content) return `${f} (${rule.what})`;
      if (++read > MAX_FILES_PER_RULE) break;
      const text = rule.commands ? await ciCommands(ctx.scan, f) : await ctx.scan.read(f);
      const m = text === undefined ? null : rule.content.exec(text);
      if (m)
        return `${f}:${lineAt(text!, m.index + (m[0].length - m[0].trimStart().length))} (${rule.what}: "${m[0].replace(/^[^\w@./-]+|[^\w@./-]+$/g, '').slice(0, 60)}")`;
    }
  }
  return undefined;
}

/** Where a check looks for evidence of an application: its own files and the repository's shared configuration. */
const appFilesCache = new WeakMap<App, readonly string[]>();

export function appFiles(ctx: Pick<CheckContext, 'scan'>, app: App): readonly string[] {
  if (app.path === '.') return ctx.scan.files;
  let files = appFilesCache.get(app);
  if (!files) {
    const shared = ctx.scan.files.filter((f) => !f.includes('/') || /^\.(github|gitlab|circleci|husky|devcontainer|config)\//.test(f));
    appFilesCache.set(app, (files = [...new Set([...app.files, ...shared, ...app.sharedConfig])].sort()));
  }
  return files;
}

const lookedFor = (rules: Rule[]) => [...new Set(rules.map((r) => r.what))].join(', ');

/** Passes on the first evidence found; fails naming what was looked for. */
export async function evidenceOutcome(ctx: CheckContext, files: readonly string[], rules: Rule[], where = 'the repository'): Promise<Outcome> {
  const found = await firstEvidence(ctx, files, rules);
  return found ? pass(`found ${found}`) : fail(`none found in ${where}; looked for ${lookedFor(rules)}`);
}

export const appWhere = (app: App) => (app.path === '.' ? 'the repository' : `${app.path} and the repository's shared configuration`);
