import type { GeneratorId } from './generators/ids.js';
import type { App } from '../evaluate/apps.js';
import type { RepoScan } from '../evaluate/scan.js';

export type Forge = 'github' | 'gitlab' | 'other';

/** What a generator reads: the checkout at HEAD (never the user's uncommitted changes) and its applications. */
export interface FixContext {
  scan: RepoScan;
  apps: readonly App[];
  /**
   * Which kind of forge the origin is: decides between Dependabot (GitHub only) and Renovate, and
   * where templates and CODEOWNERS go (GitLab reads them under .gitlab/).
   */
  forge: Forge;
  /** The repository's name (its directory), for files that show one. */
  name: string;
}

export interface GeneratedFile {
  path: string;
  content: string;
}

/** What one generator would write, and the criteria that content is meant to make pass. */
interface Generated {
  files: GeneratedFile[];
  criteria: string[];
  /**
   * Criteria among `criteria` that the files set up but that pass only once the forge acts on them
   * (Dependabot's first update pull requests): failing right after the change, they are awaited, not failed.
   */
  awaits?: string[];
}

/**
 * One file (or a small set) that satisfies a criterion, derived from the checkout. `when` names the
 * criteria whose failure calls for it; `existing` the paths whose presence means the repository
 * already has its own version, which is never overwritten (nor shadowed, as a .github/CODEOWNERS
 * would shadow a root CODEOWNERS). `generate` answers a reason instead when the checkout gives it
 * nothing real to write (no environment variable read, no ecosystem found).
 */
export interface Generator {
  id: GeneratorId;
  when: string[];
  existing: RegExp;
  generate(ctx: FixContext): Promise<Generated | { nothing: string }>;
}
