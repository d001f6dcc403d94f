import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Seed',
  GIT_AUTHOR_EMAIL: 'seed@example.com',
  GIT_COMMITTER_NAME: 'Seed',
  GIT_COMMITTER_EMAIL: 'seed@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Runs git in `cwd` and returns its trimmed output (throws on failure). */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env: ENV, encoding: 'utf8' }).trim();

export const EXISTING_WORKFLOW = '.github/workflows/ci.yml';
export const EXISTING_CONTENT = 'name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n';

/**
 * A bare Git repository on disk, made by the test, seeded with one commit on its default branch
 * holding a README and an existing workflow; plus a `release` branch. `url` is its file:// URL.
 */
export class BareRemote {
  private constructor(
    readonly root: string,
    readonly dir: string,
  ) {}

  /** `seed` may change the initial commit's files (in a working directory) before it is made. */
  static create(defaultBranch = 'main', seedFiles?: (dir: string) => void): BareRemote {
    const root = mkdtempSync(path.join(tmpdir(), 'orgctl-remote-'));
    const dir = path.join(root, 'origin.git');
    const seed = path.join(root, 'seed');
    git(root, 'init', '--bare', '--quiet', `--initial-branch=${defaultBranch}`, dir);
    git(root, 'init', '--quiet', `--initial-branch=${defaultBranch}`, seed);
    mkdirSync(path.join(seed, '.github', 'workflows'), { recursive: true });
    writeFileSync(path.join(seed, 'README.md'), '# demo\n');
    writeFileSync(path.join(seed, EXISTING_WORKFLOW), EXISTING_CONTENT);
    seedFiles?.(seed);
    git(seed, 'add', '.');
    git(seed, 'commit', '--quiet', '-m', 'initial');
    git(seed, 'push', '--quiet', dir, `${defaultBranch}:${defaultBranch}`);
    git(seed, 'push', '--quiet', dir, `${defaultBranch}:release`);
    rmSync(seed, { recursive: true, force: true });
    return new BareRemote(root, dir);
  }

  /** A bare repository without any commit. */
  static empty(): BareRemote {
    const root = mkdtempSync(path.join(tmpdir(), 'orgctl-remote-'));
    const dir = path.join(root, 'origin.git');
    git(root, 'init', '--bare', '--quiet', dir);
    return new BareRemote(root, dir);
  }

  get url(): string {
    return `file://${this.dir}`;
  }

  branches(): string[] {
    return git(this.dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/').split('\n').filter(Boolean).sort();
  }

  sha(ref: string): string {
    return git(this.dir, 'rev-parse', ref);
  }

  /** Commits on `branch` that are not on `base`. */
  newCommits(branch: string, base = 'main'): string[] {
    return git(this.dir, 'rev-list', `${base}..${branch}`).split('\n').filter(Boolean);
  }

  /** `git diff --name-status base branch`, one "A\tpath" line per changed file. */
  changes(branch: string, base = 'main'): string[] {
    return git(this.dir, 'diff', '--name-status', base, branch).split('\n').filter(Boolean);
  }

  file(ref: string, file: string): string {
    return execFileSync('git', ['show', `${ref}:${file}`], { cwd: this.dir, env: ENV, encoding: 'utf8' });
  }

  /** Makes the remote refuse every push, as a server-side policy would. */
  refusePushes(message = 'pushes are frozen by policy'): void {
    const hook = path.join(this.dir, 'hooks', 'pre-receive');
    writeFileSync(hook, `#!/bin/sh\necho "${message}" >&2\nexit 1\n`);
    chmodSync(hook, 0o755);
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
