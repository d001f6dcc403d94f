/**
 * What `install-dependencies` runs in a cloned repository, chosen from the files at its root.
 * One command per ecosystem found (a repository may hold a Node front end and a Go back end);
 * within an ecosystem the lockfile decides, most specific first. Shared by the host agent and
 * the e2b provider, so both install the same way.
 */
export interface InstallCommand {
  ecosystem: 'node' | 'python' | 'go' | 'rust' | 'ruby';
  /** The file that decided it. */
  detectedBy: string;
  /** A POSIX shell command line, run in the repository's directory. */
  command: string;
}

type Rule = { file: string; command: string; when?: (files: ReadonlySet<string>) => boolean };

const rules: Record<InstallCommand['ecosystem'], Rule[]> = {
  node: [
    { file: 'pnpm-lock.yaml', command: 'pnpm install --frozen-lockfile' },
    { file: 'bun.lock', command: 'bun install --frozen-lockfile' },
    { file: 'bun.lockb', command: 'bun install --frozen-lockfile' },
    { file: 'yarn.lock', command: 'yarn install --immutable', when: (f) => f.has('.yarnrc.yml') },
    { file: 'yarn.lock', command: 'yarn install --frozen-lockfile' },
    { file: 'package-lock.json', command: 'npm ci' },
    { file: 'npm-shrinkwrap.json', command: 'npm ci' },
    { file: 'package.json', command: 'npm install' },
  ],
  python: [
    { file: 'uv.lock', command: 'uv sync --frozen' },
    { file: 'poetry.lock', command: 'poetry install --no-root --no-interaction' },
    { file: 'Pipfile.lock', command: 'pipenv install --deploy' },
    { file: 'requirements.txt', command: 'python3 -m venv .venv && .venv/bin/pip install -r requirements.txt' },
    { file: 'pyproject.toml', command: 'python3 -m venv .venv && .venv/bin/pip install -e .' },
  ],
  go: [{ file: 'go.mod', command: 'go mod download' }],
  rust: [{ file: 'Cargo.toml', command: 'cargo fetch' }],
  ruby: [{ file: 'Gemfile', command: 'bundle install' }],
};

export function installPlan(rootFiles: Iterable<string>): InstallCommand[] {
  const files = new Set(rootFiles);
  const plan: InstallCommand[] = [];
  for (const [ecosystem, list] of Object.entries(rules) as [InstallCommand['ecosystem'], Rule[]][]) {
    const rule = list.find((r) => files.has(r.file) && (r.when?.(files) ?? true));
    if (rule) plan.push({ ecosystem, detectedBy: rule.file, command: rule.command });
  }
  return plan;
}

/** The directory name a repository URL is cloned into: its last path segment without `.git`, made unique. */
export function repoDirectoryNames(repos: readonly string[]): string[] {
  const used = new Map<string, number>();
  return repos.map((url) => {
    const last =
      url
        .replace(/[?#].*$/, '')
        .replace(/\/+$/, '')
        .split(/[/:]/)
        .pop() ?? '';
    const base =
      last
        .replace(/\.git$/, '')
        .replace(/[^A-Za-z0-9._-]/g, '-')
        .replace(/^\.+/, '') || 'repo';
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
}

/** The reason a failed command gives in a step's `error`: its exit code and the last lines of stderr. */
export function failureMessage(what: string, exitCode: number | null, stderr: string, signal?: string | null): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')
    .slice(-10);
  const how = exitCode !== null ? `exited with code ${exitCode}` : `was stopped by ${signal ?? 'a signal'}`;
  return `${what} ${how}${lines.length ? `:\n${lines.join('\n')}` : ''}`.slice(0, 4000);
}

/**
 * A failure message on one line, for a log line: the command and its exit code, then stderr's
 * lines joined by ` | `, so the reason git or npm gives (usually last: "Could not resolve host …")
 * is never cut off with the lines that carry it.
 */
export function oneLine(message: string): string {
  const [first = '', ...rest] = message.split('\n').filter((l) => l.trim() !== '');
  return rest.length ? `${first} ${rest.map((l) => l.trim()).join(' | ')}` : first;
}

/** How an executor (the host agent, the e2b provider) reaches a repository's directory. */
export interface InstallRunner {
  /** The files at the directory's root, or why they could not be listed. */
  list(dir: string): Promise<string[] | { error: string; exitCode: number | null }>;
  run(command: string, dir: string): Promise<{ exitCode: number | null; stderr: string; signal?: string | null }>;
  output(chunk: string): void;
  /** True once the executor stops: no further command starts. */
  stopped(): boolean;
}

export type InstallOutcome = { ok: true } | { ok: false; error: string; exitCode: number | null };

/** What a step stopped by its executor returns; the executor records something else, or nothing. */
export const STOPPED = { ok: false, error: 'The executor stopped.', exitCode: null } as const satisfies InstallOutcome;

/**
 * `install-dependencies` over the cloned directories: each one's plan in turn, saying what it
 * found and runs, to the first command that fails.
 */
export async function installRepositories(dirs: readonly string[], x: InstallRunner): Promise<InstallOutcome> {
  if (dirs.length === 0) x.output('No repositories: nothing to install.\n');
  for (const dir of dirs) {
    if (x.stopped()) return STOPPED;
    const files = await x.list(dir);
    if (!Array.isArray(files)) return { ok: false, ...files };
    const plan = installPlan(files);
    if (plan.length === 0) x.output(`${dir}: no lockfile or manifest found (npm, pnpm, yarn, bun, pip, uv, poetry, go, cargo, bundler): nothing to install.\n`);
    for (const step of plan) {
      if (x.stopped()) return STOPPED;
      x.output(`${dir}: ${step.detectedBy} found; $ ${step.command}\n`);
      const r = await x.run(step.command, dir);
      if (r.exitCode !== 0) return { ok: false, error: failureMessage(`\`${step.command}\` in ${dir}`, r.exitCode, r.stderr, r.signal), exitCode: r.exitCode };
    }
  }
  return { ok: true };
}

/**
 * git's own protocol allow-list for a clone, as `-c` options: the protocols the service accepts
 * for a computer's repositories and nothing else, so a transport helper (`ext::`, `fd::`) that
 * reached a clone some other way still runs no command.
 */
export const GIT_PROTOCOLS = ['-c', 'protocol.allow=never', ...['https', 'http', 'ssh', 'git', 'file'].flatMap((p) => ['-c', `protocol.${p}.allow=always`])];
