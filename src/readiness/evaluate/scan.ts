import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { git } from './git.js';

/** Files larger than this are never read: configuration and manifests are far smaller. */
const MAX_READ_BYTES = 512 * 1024;

/**
 * Directories that hold other projects' files (vendored dependencies, package manager caches, git
 * submodule-like checkouts): a match inside them is never evidence about this repository.
 */
const VENDORED =
  /(^|\/)(vendor|vendors|third[-_]party|3rdparty|node_modules|bower_components|jspm_packages|Pods|Carthage|\.build|\.venv|venv|site-packages|\.yarn)\//;

/** The checkout as the checks see it: its file list, and file contents read on demand and kept. */
export interface RepoScan {
  root: string;
  /** Every tracked or untracked-not-ignored file outside vendored directories (VENDORED), repository-relative with `/`, sorted. */
  files: readonly string[];
  has(file: string): boolean;
  /** The text of a file, or undefined when it is absent, too large or unreadable. */
  read(file: string): Promise<string | undefined>;
}

const splitZ = (out: string) => out.split('\0').filter((f) => f !== '');

export async function scanRepository(dir: string): Promise<RepoScan> {
  const root = (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
  const [tracked, untracked] = await Promise.all([git(root, ['ls-files', '-z', '--cached']), git(root, ['ls-files', '-z', '--others', '--exclude-standard'])]);
  const every = [...new Set([...splitZ(tracked), ...splitZ(untracked)])].sort();
  const files = every.filter((f) => !VENDORED.test(f));
  const set = new Set(files);
  const cache = new Map<string, Promise<string | undefined>>();
  const load = async (file: string) => {
    const full = path.join(root, file);
    try {
      // A tracked symbolic link may point outside the checkout: only regular files are read.
      const s = await lstat(full);
      if (!s.isFile() || s.size > MAX_READ_BYTES) return undefined;
      return await readFile(full, 'utf8');
    } catch {
      return undefined;
    }
  };
  return {
    root,
    files,
    has: (file) => set.has(file),
    read(file) {
      if (!set.has(file)) return Promise.resolve(undefined);
      let p = cache.get(file);
      if (!p) cache.set(file, (p = load(file)));
      return p;
    },
  };
}
