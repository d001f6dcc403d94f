import { failureMessage, GIT_PROTOCOLS, installRepositories, repoDirectoryNames, STOPPED } from '../install-plan.js';
import { shellQuote } from '../../core/process/shell-quote.js';
import type { ComputerRow } from '../store.js';
import type { E2bClient, E2bSandbox } from './e2b-client.js';

export interface StepContext {
  computer: ComputerRow;
  template: string;
  signal: AbortSignal;
  output(chunk: string): void;
  setSandbox(id: string): Promise<void>;
  setRemoteUser(user: string): Promise<void>;
  setClonedDirectories(dirs: string[]): Promise<void>;
}

export type StepOutcome = { ok: true; exitCode: number | null } | { ok: false; error: string; exitCode: number | null };

/** The default user of E2B's base template. */
const DEFAULT_USER = 'user';
const userOf = (c: ComputerRow) => c.remote_user ?? DEFAULT_USER;
const homeOf = (user: string) => (user === 'root' ? '/root' : `/home/${user}`);

/** Runs one e2b provisioning step in the computer's sandbox. */
export async function runE2bStep(e2b: E2bClient, stepId: string, ctx: StepContext): Promise<StepOutcome> {
  const c = ctx.computer;
  if (stepId === 'create-sandbox') {
    // A retried step reuses the sandbox an earlier attempt created.
    if (c.sandbox_id) {
      ctx.output(`Reusing sandbox ${c.sandbox_id}\n`);
      await e2b.connect(c.sandbox_id);
      return { ok: true, exitCode: null };
    }
    const sandbox = await e2b.create({ template: ctx.template, metadata: { orgctlComputerId: c.id, orgctlOrgId: c.org_id } });
    await ctx.setSandbox(sandbox.sandboxId);
    ctx.output(`Created sandbox ${sandbox.sandboxId} from template ${ctx.template}\n`);
    return { ok: true, exitCode: null };
  }
  if (!c.sandbox_id) return { ok: false, error: 'The computer has no sandbox; create-sandbox did not complete.', exitCode: null };
  const sandbox = await e2b.connect(c.sandbox_id);
  const user = userOf(c);
  const run = (cmd: string, cwd?: string, asUser = true) =>
    sandbox.run(cmd, { cwd, user: asUser ? user : 'root', onOutput: (chunk) => ctx.output(chunk), signal: ctx.signal });

  if (stepId === 'configure-user') {
    const r = await run(`id -u ${shellQuote(user)} >/dev/null 2>&1 || useradd -m -s /bin/bash ${shellQuote(user)}`, undefined, false);
    if (r.exitCode !== 0) return { ok: false, error: failureMessage(`Creating user ${user}`, r.exitCode, r.stderr), exitCode: r.exitCode };
    await ctx.setRemoteUser(user);
    return { ok: true, exitCode: 0 };
  }
  const dirs = repoDirectoryNames(c.repos).map((d) => `${homeOf(user)}/${d}`);
  if (stepId === 'clone-repos') {
    for (const [i, url] of c.repos.entries()) {
      if (ctx.signal.aborted) return STOPPED;
      const dir = dirs[i] as string;
      ctx.output(`$ git clone ${url} ${dir}\n`);
      const r = await run(
        `test -d ${shellQuote(`${dir}/.git`)} && echo 'already cloned' || git ${GIT_PROTOCOLS.join(' ')} clone -- ${shellQuote(url)} ${shellQuote(dir)}`,
      );
      if (r.exitCode !== 0) return { ok: false, error: failureMessage(`git clone ${url}`, r.exitCode, r.stderr), exitCode: r.exitCode };
    }
    await ctx.setClonedDirectories(dirs);
    return { ok: true, exitCode: 0 };
  }
  if (stepId === 'install-dependencies') return installAll(sandbox, c.cloned_repo_directories ?? dirs, user, ctx);
  return { ok: false, error: `Unknown step ${stepId}.`, exitCode: null };
}

async function installAll(sandbox: E2bSandbox, dirs: string[], user: string, ctx: StepContext): Promise<StepOutcome> {
  const outcome = await installRepositories(dirs, {
    async list(dir) {
      const ls = await sandbox.run(`ls -A ${shellQuote(dir)}`, { user, signal: ctx.signal });
      return ls.exitCode === 0
        ? ls.stdout.split('\n').filter(Boolean)
        : { error: failureMessage(`Listing ${dir}`, ls.exitCode, ls.stderr), exitCode: ls.exitCode };
    },
    run: (command, dir) => sandbox.run(command, { cwd: dir, user, onOutput: (chunk) => ctx.output(chunk), signal: ctx.signal }),
    output: (chunk) => ctx.output(chunk),
    stopped: () => ctx.signal.aborted,
  });
  return outcome.ok ? { ok: true, exitCode: 0 } : outcome;
}
