import path from 'node:path';
import { flag } from '../../core/cli/args.js';
import { CliError } from '../../core/cli/cli-error.js';
import { AppError } from '../../core/http/errors.js';
import type { CommandContext } from '../../cli/api/command.js';
import { checkBranchName } from '../../automations/workflow-request.js';
import { discoverApps } from '../evaluate/apps.js';
import { evaluateRepository, type Evaluation } from '../evaluate/evaluate.js';
import { git, shownRepoUrl } from '../evaluate/git.js';
import { scanRepository } from '../evaluate/scan.js';
import { ScratchCheckout } from './checkout.js';
import { GENERATORS } from './generators/index.js';
import { plan as makePlan, type Plan } from './plan.js';
import { forgeOf, openPullRequest, type Opened } from './pull-request.js';
import { fixJson, type Delivery } from './json.js';
import { outcome, planSummary, pullRequestBody } from './report.js';
import { stableJson } from '../evaluate/report.js';

const TITLE = 'Readiness: add the files agents and reviewers look for';

const gitText = async (dir: string, args: string[]) => (await git(dir, args, { allowFailure: true })).trim();

/** The user's own identity, as their next commit would carry it; orgctl's when git has none. */
async function authorOf(root: string) {
  const [name, email] = await Promise.all([gitText(root, ['config', 'user.name']), gitText(root, ['config', 'user.email'])]);
  return { name: name || 'orgctl', email: email || 'orgctl@localhost' };
}

const commitMessage = (p: Plan) =>
  `${TITLE}\n\n${p.steps.flatMap((s) => ('files' in s ? s.files.map((f) => `- ${f.path}${s.criteria.length ? ` (${s.criteria.join(', ')})` : ''}`) : [])).join('\n')}\n`;

/** Fails the command (exit 2) when the branch name is one git or a host would refuse. */
function checkedBranch(name: string): string {
  try {
    checkBranchName(name, 'branch');
  } catch {
    throw new CliError(`--branch ${name} is not a valid branch name (letters, digits, . _ / + -; no .., //, leading - or trailing /)`, 2);
  }
  return name;
}

/** `orgctl readiness fix` (command.ts has its flags). */
export async function runFix(ctx: CommandContext): Promise<number> {
  const dir = path.resolve(ctx.positionals[0] ?? '.');
  const root = await gitText(dir, ['rev-parse', '--show-toplevel']);
  if (!root) throw new CliError(`${dir} is not inside a git checkout`, 2);
  const only = flag(ctx, 'only')
    ?.split(',')
    .map((s) => s.trim());
  const unknown = only?.filter((id) => !GENERATORS.some((g) => g.id === id));
  if (unknown?.length) throw new CliError(`--only: no generator ${unknown.join(', ')} (there are ${GENERATORS.map((g) => g.id).join(', ')})`, 2);
  const openPr = ctx.values['open-pr'] === true;
  const dryRun = ctx.values['dry-run'] === true;
  // --json, as `readiness evaluate` spells it, or --output json, as the other commands do.
  const json = ctx.values.json === true || ctx.output === 'json';
  // The remote as configured, credentials included: pushing may need them. Only its shown form is printed.
  const remote = flag(ctx, 'repo-url') ?? ((await gitText(root, ['remote', 'get-url', 'origin'])) || undefined);
  if (openPr && !remote) throw new CliError(`${root} has no origin remote to open the pull request on: pass --repo-url URL`, 2);
  const githubToken = flag(ctx, 'github-token') ?? (ctx.env.GITHUB_TOKEN || undefined);
  const githubApiUrl = ctx.env.GITHUB_API_URL || 'https://api.github.com';
  const repoUrl = remote ? shownRepoUrl(remote) : `file://${root}`;

  const scratch = await ScratchCheckout.create(root).catch((e: Error) => {
    throw new CliError(`Cannot fix ${root}: ${e.message}`);
  });
  try {
    const branch = checkedBranch(flag(ctx, 'branch') ?? `orgctl/readiness-fix-${scratch.head.slice(0, 8)}`);
    const evaluate = () => evaluateRepository({ dir: scratch.dir, repoUrl, githubToken, githubApiUrl });
    const before = await evaluate();
    const scan = await scanRepository(scratch.dir);
    const { apps } = await discoverApps(scan);
    const forge = forgeOf(remote, githubApiUrl);
    const plan = await makePlan({ scan, apps, forge, name: path.basename(root) }, before.report.report, root, only);
    const say = (text: string) => {
      if (!json) process.stdout.write(text);
    };
    const finish = (after?: Evaluation, delivery?: Delivery) => {
      if (json) process.stdout.write(`${stableJson(fixJson({ repoUrl, head: scratch.head, plan, before, after, delivery }))}\n`);
      return after ? warn(plan, before, after) : 0;
    };
    say(`${planSummary(plan)}\n`);
    if (!plan.files.length) {
      say('Nothing to write.\n');
      return finish();
    }
    await scratch.write(plan.files);
    if (dryRun) {
      say(`\n${await scratch.diff(plan.files)}`);
      // Committed in the throw-away clone only, so the dry run says what the change would do to the evaluation.
      await scratch.commit(plan.files, commitMessage(plan), await authorOf(root));
      const after = await evaluate();
      say(`\n${pullRequestBody(plan, before, after)}`);
      say(`\nDry run: nothing was written; without --dry-run the files are committed on a new branch ${branch}.\n`);
      return finish(after, { kind: 'dry-run', branch });
    }
    if (!openPr && (await gitText(root, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`])))
      throw new CliError(`The branch ${branch} already exists: pass --branch NAME`, 2);
    const author = await authorOf(root);
    const commit = await scratch.commit(plan.files, commitMessage(plan), author);
    const after = await evaluate();
    const body = pullRequestBody(plan, before, after);
    let delivery: Delivery;
    if (openPr) {
      const opened = await open({ remote: remote!, branch, base: flag(ctx, 'base'), githubToken, githubApiUrl, plan, body, author });
      const where = { repo: opened.repo, branch: opened.branch, baseBranch: opened.baseBranch, commit: opened.commitSha };
      delivery = opened.pullRequest ? { kind: 'pull-request', ...where, ...opened.pullRequest } : { kind: 'pushed', ...where };
      say(
        opened.pullRequest
          ? `\nOpened pull request #${opened.pullRequest.number}: ${opened.pullRequest.url} (${opened.branch} into ${opened.baseBranch}).\n`
          : `\nPushed the branch ${opened.branch} (${opened.commitSha.slice(0, 12)}) to ${opened.repo}, based on ${opened.baseBranch}; ` +
              'plain Git has no pull requests: its commit message carries the description below. Nothing local changed.\n',
      );
    } else {
      await scratch.branchInto(root, branch, commit);
      delivery = { kind: 'branch', branch, commit };
      say(
        `\nCommitted ${plan.files.length} files on the new branch ${branch} (${commit.slice(0, 12)}), on top of HEAD; ` +
          `your working tree, index and current branch are untouched. Look with: git switch ${branch}\n`,
      );
    }
    say(`\n${body}`);
    return finish(after, delivery);
  } finally {
    await scratch.remove();
  }
}

/**
 * Says on standard error when the evaluation after the change is not what the files were for, and
 * answers the exit status: 1 when a targeted criterion still fails or another one now fails, so a
 * CI step notices. A criterion that waits for the forge to act on the files (Dependabot's first
 * pull requests) is not a failure of the fix.
 */
function warn(plan: Plan, before: Evaluation, after: Evaluation): number {
  const { stillFailing, otherChanges, regressions } = outcome(plan, before, after);
  if (stillFailing.length) process.stderr.write(`Still failing after the change: ${stillFailing.join(', ')}.\n`);
  if (otherChanges.length) process.stderr.write(`Other criteria changed: ${otherChanges.map((c) => `${c.id} ${c.before} -> ${c.after}`).join(', ')}.\n`);
  return stillFailing.length || regressions.length ? 1 : 0;
}

interface OpenArgs {
  remote: string;
  branch: string;
  base?: string;
  githubToken?: string;
  githubApiUrl: string;
  plan: Plan;
  body: string;
  author: { name: string; email: string };
}

async function open(a: OpenArgs): Promise<Opened> {
  let opened;
  try {
    opened = await openPullRequest({
      repoUrl: a.remote,
      githubToken: a.githubToken,
      githubApiUrl: a.githubApiUrl,
      baseBranch: a.base,
      branch: a.branch,
      title: TITLE,
      body: a.body,
      files: a.plan.files,
      author: a.author,
    });
  } catch (e) {
    // The hosts speak to CI edit's callers ("use action edit"); fix never edits, the checkout is behind the base branch.
    const message =
      e instanceof AppError && e.code === 'workflow_exists'
        ? `${e.detail.replace(/;[^;]*$/, '')}, and fix never overwrites a file: bring the checkout up to date with the base branch and run fix again`
        : (e as Error).message;
    throw new CliError(`Cannot open the pull request on ${shownRepoUrl(a.remote)}: ${message}`);
  }
  return opened;
}
