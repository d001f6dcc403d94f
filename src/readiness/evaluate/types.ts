import type { App } from './apps.js';
import type { Forge } from './forge.js';
import type { GitFacts } from './git.js';
import type { MachineProbe } from './probe.js';
import type { RepoScan } from './scan.js';

/** What one check concluded for the repository or for one application. */
export type Outcome = { pass: boolean; evidence: string } | { skip: string };

export const pass = (evidence: string): Outcome => ({ pass: true, evidence });
export const fail = (evidence: string): Outcome => ({ pass: false, evidence });
export const skip = (reason: string): Outcome => ({ skip: reason });

export interface CheckContext {
  scan: RepoScan;
  apps: readonly App[];
  /** The workspace mechanisms that declared the applications; empty for a single application. */
  workspaces: readonly string[];
  git: GitFacts;
  /** The forge's API, or why it cannot be read (no token, not a GitHub repository). */
  forge: Forge | { unavailable: string };
  probe: MachineProbe;
}

export type Check =
  | { id: string; scope: 'repository'; run(ctx: CheckContext): Promise<Outcome> }
  | { id: string; scope: 'application'; run(ctx: CheckContext, app: App): Promise<Outcome> };
