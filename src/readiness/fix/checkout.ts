import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { git } from '../evaluate/git.js';
import type { GeneratedFile } from './types.js';

/**
 * A throw-away clone of the user's repository at HEAD (`git clone --shared`: it borrows the
 * objects, copies none, and writes nothing into the user's repository). Files are generated,
 * committed and evaluated there, so the user's working tree, index and HEAD are never touched,
 * and uncommitted work never leaks into the fix.
 */
export class ScratchCheckout {
  private constructor(
    readonly dir: string,
    readonly head: string,
    private readonly parent: string,
  ) {}

  static async create(root: string): Promise<ScratchCheckout> {
    const head = (await git(root, ['rev-parse', '--verify', 'HEAD^{commit}'], { allowFailure: true })).trim();
    if (!head) throw new Error(`${root} has no commit yet: nothing to fix on`);
    const parent = await mkdtemp(path.join(tmpdir(), 'orgctl-fix-'));
    const dir = path.join(parent, 'checkout');
    try {
      await git(parent, ['clone', '--shared', '--no-checkout', '--quiet', '--', root, dir]);
      await git(dir, ['checkout', '--quiet', '--detach', head]);
    } catch (e) {
      await rm(parent, { recursive: true, force: true });
      throw e;
    }
    return new ScratchCheckout(dir, head, parent);
  }

  async write(files: GeneratedFile[]): Promise<void> {
    for (const f of files) {
      const full = path.join(this.dir, f.path);
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, f.content, { flag: 'wx' });
    }
  }

  /** The unified diff of the written files against HEAD, as git prints it. */
  async diff(files: GeneratedFile[]): Promise<string> {
    const paths = files.map((f) => f.path);
    await git(this.dir, ['add', '--intent-to-add', '--force', '--', ...paths]);
    return git(this.dir, ['diff', '--no-color', '--no-ext-diff', 'HEAD', '--', ...paths]);
  }

  /** Commits the written files on top of HEAD and returns the commit. */
  async commit(files: GeneratedFile[], message: string, author: { name: string; email: string }): Promise<string> {
    const who = ['-c', `user.name=${author.name}`, '-c', `user.email=${author.email}`, '-c', 'commit.gpgsign=false'];
    await git(this.dir, ['add', '--force', '--', ...files.map((f) => f.path)]);
    await git(this.dir, [...who, 'commit', '--quiet', '--no-verify', '--cleanup=verbatim', '-m', message]);
    return (await git(this.dir, ['rev-parse', 'HEAD'])).trim();
  }

  /**
   * Brings the commit into the user's repository as a new branch. update-ref with an empty old
   * value creates the branch or fails: an existing branch is never moved.
   */
  async branchInto(root: string, branch: string, commit: string): Promise<void> {
    await git(this.dir, ['update-ref', 'refs/heads/orgctl-fix', commit]);
    await git(root, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--', this.dir, 'refs/heads/orgctl-fix']);
    await git(root, ['update-ref', '-m', 'orgctl readiness fix', `refs/heads/${branch}`, commit, '']);
  }

  async remove(): Promise<void> {
    await rm(this.parent, { recursive: true, force: true });
  }
}
