import { parse as parseYaml } from 'yaml';
import { githubWorkflows } from '../ci-config.js';
import { ci, evidenceOutcome, file, firstEvidence, type Rule } from '../evidence.js';
import { git } from '../git.js';
import { anyOf } from '../patterns.js';
import { fail, pass, skip, type CheckContext, type Outcome } from '../types.js';

/**
 * The forge criteria judged from the checkout and its history when the forge's API cannot be read
 * (no token, another forge, the API refused). Each rationale says what it read instead and why;
 * a criterion is skipped only where the checkout holds no evidence either way.
 */

const DAY_S = 86_400;
const WINDOW_DAYS = 28;
const MIN_HISTORY = 10;

const isShallow = async (ctx: CheckContext) => (await git(ctx.scan.root, ['rev-parse', '--is-shallow-repository'], { allowFailure: true })).trim() === 'true';

/** Subjects or bodies that show a change arrived through a pull or merge request. */
const VIA_REQUEST = /^Merge pull request #\d+|\(#\d+\)\s*$|See merge request [^\s]+!\d+|^Merged in [^\n]+\(pull request #\d+\)|^Merge (pull|merge) request/m;

export async function branchProtectionOffline(ctx: CheckContext, why: string): Promise<Outcome> {
  const settings = await ctx.scan.read('.github/settings.yml');
  if (settings !== undefined) {
    type Settings = { branches?: { name?: string; protection?: { required_pull_request_reviews?: unknown } | null }[] } | null;
    let cfg: Settings;
    try {
      cfg = parseYaml(settings) as Settings;
    } catch {
      cfg = null;
    }
    const protectedBranch = cfg?.branches?.find((b) => b?.protection?.required_pull_request_reviews);
    if (protectedBranch)
      return pass(`.github/settings.yml protects ${protectedBranch.name ?? 'a branch'} with required pull request reviews (settings app); ${why}`);
  }
  const out = await git(ctx.scan.root, ['log', '--first-parent', '-100', '--format=%h%x1f%P%x1f%B%x1e', 'HEAD'], { allowFailure: true });
  const commits = out
    .split('\x1e')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => {
      const [hash, , body] = c.split('\x1f');
      return { hash: hash ?? '', body: body ?? '' };
    });
  if (commits.length < MIN_HISTORY)
    return skip(`rules not readable (${why}) and only ${commits.length} commits of history to judge from${(await isShallow(ctx)) ? ' (a shallow clone)' : ''}`);
  const direct = commits.filter((c) => !VIA_REQUEST.test(c.body));
  const branch = ctx.git.branch ?? 'HEAD';
  const text = `${commits.length - direct.length} of the last ${commits.length} commits on ${branch} arrived through pull requests (git log --first-parent: "(#N)" or "Merge pull request")`;
  if (direct.length <= commits.length / 10) return pass(`${text}: direct pushes look blocked; rules not read: ${why}`);
  const e = direct[0]!;
  return fail(`${text}; ${direct.length} were pushed directly, e.g. ${e.hash} "${e.body.split('\n')[0]!.slice(0, 60)}"; rules not read: ${why}`);
}

const REVIEW_BOTS: Rule[] = [
  file(
    'review bot configuration',
    anyOf(
      [
        /\.coderabbit\.ya?ml/,
        /\.github\/coderabbit\.ya?ml/,
        /[Dd]angerfile(\.(js|ts|swift|kts|py))?/,
        /\.pr_agent\.toml/,
        /\.sourcery\.ya?ml/,
        /\.gemini\/config\.ya?ml/,
        /greptile\.json/,
        /ellipsis\.ya?ml/,
        /\.cursor\/BUGBOT\.md/,
        /\.github\/copilot-code-review\.ya?ml/,
      ],
      { before: /^/, after: /$/ },
    ),
  ),
  ci(
    'review bot in CI',
    /coderabbitai\/|\bdanger\b|reviewdog|anthropics\/claude-code-action|droid exec|openai\/codex-action|pr-agent|ai-pr-reviewer|gemini-code-assist/i,
  ),
];

export const prReviewOffline = async (ctx: CheckContext, why: string): Promise<Outcome> => {
  const found = await firstEvidence(ctx, ctx.scan.files, REVIEW_BOTS);
  if (found) return pass(`found ${found}; the comments it posts were not read: ${why}`);
  return fail(
    `no review bot configuration (CodeRabbit, Danger, reviewdog, PR-Agent, Claude/Droid review workflow) in the checkout; pull requests not read: ${why}`,
  );
};

const PR_EVENTS = new Set(['pull_request', 'pull_request_target', 'merge_group']);

export async function fastCiOffline(ctx: CheckContext, why: string): Promise<Outcome> {
  const flows = (await githubWorkflows(ctx.scan)).filter((w) => w.triggers.some((t) => PR_EVENTS.has(t)));
  if (!flows.length) {
    if (ctx.scan.files.some((f) => /^(\.gitlab-ci\.yml|\.circleci\/|azure-pipelines|Jenkinsfile|\.buildkite\/)/.test(f)))
      return skip(`CI is not GitHub Actions and its durations are not in the configuration; run times not read: ${why}`);
    return fail(`no workflow runs on pull requests (.github/workflows triggers pull_request, merge_group): no CI feedback; run times not read: ${why}`);
  }
  const jobs = flows.flatMap((w) => w.jobs.map((j) => ({ ...j, file: w.file })));
  const capped = jobs.filter((j) => j.timeoutMinutes !== undefined && j.timeoutMinutes <= 10);
  if (jobs.length && capped.length === jobs.length)
    return pass(
      `every pull-request job is capped at 10 minutes or less (timeout-minutes in ${[...new Set(jobs.map((j) => j.file))].join(', ')}); run times not read: ${why}`,
    );
  const open = jobs.find((j) => j.timeoutMinutes === undefined || j.timeoutMinutes > 10);
  return skip(
    `pull-request CI found (${flows.map((w) => w.file).join(', ')}) but its duration is not in the configuration ` +
      `(${open ? `${open.file} job ${open.id}: timeout-minutes ${open.timeoutMinutes ?? 'unset'}` : 'no jobs'}); run times not read: ${why}`,
  );
}

const DEPLOY_COMMAND = anyOf(
  [
    /\bdeploy\b/,
    /npm publish/,
    /docker\/build-push-action/,
    /docker push/,
    /twine upload/,
    /pypa\/gh-action-pypi-publish/,
    /cargo publish/,
    /gh release create/,
    /softprops\/action-gh-release/,
    /semantic-release/,
    /release-please/,
    /goreleaser/,
    /changesets\/action/,
  ],
  { flags: 'i' },
);

export async function deploymentFrequencyOffline(ctx: CheckContext, why: string): Promise<Outcome> {
  const head = ctx.git.headTime;
  if (head === undefined) return skip(`no commits to date releases against; releases not read: ${why}`);
  const since = head - WINDOW_DAYS * DAY_S;
  const tags = (
    await git(ctx.scan.root, ['for-each-ref', '--sort=-creatordate', '--format=%(creatordate:unix) %(refname:short)', 'refs/tags'], { allowFailure: true })
  )
    .split('\n')
    .map((l) => l.trim().split(' '))
    .filter(([t, n]) => n && Number(t) > 0 && Number(t) <= head)
    .map(([t, n]) => ({ time: Number(t), name: n! }));
  const recent = tags.filter((t) => t.time >= since);
  if (recent.length >= 8)
    return pass(
      `${recent.length} release tags in the ${WINDOW_DAYS} days before HEAD (git tags, newest ${recent[0]!.name}): 2 or more a week; releases on the forge not read: ${why}`,
    );
  const flows = (await githubWorkflows(ctx.scan)).filter(
    (w) =>
      w.triggers.includes('push') &&
      (!w.pushBranches.length || w.pushBranches.some((b) => ['main', 'master', ctx.git.branch].includes(b))) &&
      w.jobs.some((j) => DEPLOY_COMMAND.test(j.commands)),
  );
  if (flows.length) {
    const pushes = Number(
      (await git(ctx.scan.root, ['rev-list', '--first-parent', '--count', `--since=${since}`, 'HEAD'], { allowFailure: true })).trim() || 0,
    );
    const text = `${flows[0]!.file} deploys on every push to the default branch, and ${pushes} commits landed in the ${WINDOW_DAYS} days before HEAD (git log --first-parent)`;
    return pushes >= 8 ? pass(`${text}: 2 or more deploys a week; runs not read: ${why}`) : fail(`${text}: fewer than 2 a week; runs not read: ${why}`);
  }
  if (tags.length) {
    const last = tags[0]!;
    return fail(
      `${recent.length} release tags in the ${WINDOW_DAYS} days before HEAD (the last, ${last.name}, ${Math.floor((head - last.time) / DAY_S)} days before it) ` +
        `and no deploy on push: fewer than 2 a week; releases on the forge not read: ${why}`,
    );
  }
  if (await isShallow(ctx)) return skip(`a shallow clone without tags: release history unknown; releases not read: ${why}`);
  return fail(`no release tags in the history and no workflow that deploys on push; releases on the forge not read: ${why}`);
}

export const secretScanningOffline = (ctx: CheckContext, why: string): Promise<Outcome> =>
  evidenceOutcome(ctx, ctx.scan.files, [file('secret scanning configuration', /^\.github\/secret_scanning\.ya?ml$/)]).then((o) =>
    'pass' in o && o.pass
      ? o
      : fail(`no gitleaks/trufflehog/detect-secrets in CI or hooks and no .github/secret_scanning.yml; the native setting not read: ${why}`),
  );

export const SECURITY_CONFIG: Rule[] = [
  file(
    'security analysis configuration',
    /^(\.github\/codeql\/[^/]+\.ya?ml|\.snyk|\.semgrep\.ya?ml|\.semgrep\/.+\.ya?ml|semgrep\.ya?ml|\.bandit|bandit\.ya?ml|\.gosec\.json)$/,
  ),
];

export const QUALITY_BADGE: Rule = {
  file: /^README[^/]*$/i,
  content: /(codecov\.io|coveralls\.io|sonarcloud\.io|codeclimate\.com|app\.codacy\.com|deepsource\.io|qlty\.sh)\/[^\s)]*/i,
  what: 'quality tracking badge',
};
