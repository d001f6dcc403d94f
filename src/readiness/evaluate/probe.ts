import { hostname } from 'node:os';
import { runProcess } from '../../core/process/run-process.js';

/** Facts about the machine that runs the evaluation (not the repository): injectable so tests are deterministic. */
export interface MachineProbe {
  /** gh and glab: whether each is on PATH and logged in. */
  vcsCli(): Promise<{ tool: 'gh' | 'glab'; installed: boolean; authenticated: boolean }[]>;
  /** Whether the devcontainer CLI is on PATH. */
  devcontainerCli(): Promise<boolean>;
  /** Names the machine in a rationale, so a reader tells a property of the machine from one of the repository. */
  where?(): string;
}

type Run = { installed: boolean; ok: boolean };

const run = async (cmd: string, args: string[]): Promise<Run> => {
  const r = await runProcess(cmd, args, { timeoutMs: 15_000, killGraceMs: 1000, stdout: 'none', stderr: 'none' });
  return { installed: r.startError?.code !== 'ENOENT', ok: r.exitCode === 0 && !r.timedOut };
};

/** The real machine: runs `gh auth status`, `glab auth status` and `devcontainer --version`, once each. */
export function systemProbe(): MachineProbe {
  let vcs: ReturnType<MachineProbe['vcsCli']> | undefined;
  let devcontainer: Promise<boolean> | undefined;
  return {
    vcsCli: () =>
      (vcs ??= Promise.all(
        (['gh', 'glab'] as const).map(async (tool) => {
          const r = await run(tool, ['auth', 'status']);
          return { tool, installed: r.installed, authenticated: r.ok };
        }),
      )),
    devcontainerCli: () => (devcontainer ??= run('devcontainer', ['--version']).then((r) => r.ok)),
    where: () => `the evaluating machine (host ${hostname()}, tools looked up on its PATH)`,
  };
}
