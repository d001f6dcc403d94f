import { execFile } from 'node:child_process';

/** Facts about the machine that runs the evaluation (not the repository): injectable so tests are deterministic. */
export interface MachineProbe {
  /** gh and glab: whether each is on PATH and logged in. */
  vcsCli(): Promise<{ tool: 'gh' | 'glab'; installed: boolean; authenticated: boolean }[]>;
  /** Whether the devcontainer CLI is on PATH. */
  devcontainerCli(): Promise<boolean>;
}

type Run = { installed: boolean; ok: boolean };

const run = (cmd: string, args: string[]): Promise<Run> =>
  new Promise((resolve) => {
    execFile(cmd, args, { timeout: 15_000, windowsHide: true }, (err) => {
      if (!err) return resolve({ installed: true, ok: true });
      resolve({ installed: (err as NodeJS.ErrnoException).code !== 'ENOENT', ok: false });
    });
  });

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
  };
}
