import type { E2bClient, E2bSandbox } from '../../src/computers/providers/e2b-client.js';

/**
 * A TEST DOUBLE of the E2B cloud (which the tests cannot reach): sandboxes are records, commands
 * are answered by `respond` and logged in `commands`. `hold` makes matching commands wait until
 * released, to catch a step in the middle; a held command whose signal aborts is killed (exit
 * code 137) and logged in `killed`.
 */
export interface RecordedCommand {
  sandboxId: string;
  cmd: string;
  cwd?: string;
  user?: string;
}

type Reply = { exitCode: number; stdout?: string; stderr?: string };

export class E2bTestDouble implements E2bClient {
  readonly sandboxes = new Map<string, { alive: boolean; metadata: Record<string, string> }>();
  readonly commands: RecordedCommand[] = [];
  readonly killed: string[] = [];
  respond: (cmd: string) => Reply = (cmd) =>
    cmd.startsWith('ls -A') ? { exitCode: 0, stdout: 'package.json\npackage-lock.json\n' } : { exitCode: 0, stdout: `ran: ${cmd}\n` };
  hold: ((cmd: string) => boolean) | undefined;
  private releaseHeld: (() => void)[] = [];
  private next = 0;

  async create(opts: { template: string; metadata: Record<string, string> }): Promise<E2bSandbox> {
    const id = `sbx-double-${++this.next}`;
    this.sandboxes.set(id, { alive: true, metadata: opts.metadata });
    return this.sandbox(id);
  }

  async connect(sandboxId: string): Promise<E2bSandbox> {
    if (!this.sandboxes.get(sandboxId)?.alive) throw new Error(`sandbox ${sandboxId} not found`);
    return this.sandbox(sandboxId);
  }

  async kill(sandboxId: string): Promise<void> {
    const s = this.sandboxes.get(sandboxId);
    if (s) s.alive = false;
  }

  release(): void {
    for (const r of this.releaseHeld.splice(0)) r();
  }

  private sandbox(sandboxId: string): E2bSandbox {
    return {
      sandboxId,
      run: async (cmd, opts) => {
        this.commands.push({ sandboxId, cmd, cwd: opts.cwd, user: opts.user });
        if (this.hold?.(cmd)) {
          const killed = await new Promise<boolean>((r) => {
            if (opts.signal?.aborted) return r(true);
            this.releaseHeld.push(() => r(false));
            opts.signal?.addEventListener('abort', () => r(true), { once: true });
          });
          if (killed) {
            this.killed.push(cmd);
            return { exitCode: 137, stdout: '', stderr: '' };
          }
        }
        const reply = this.respond(cmd);
        if (reply.stdout) opts.onOutput?.(reply.stdout);
        if (reply.stderr) opts.onOutput?.(reply.stderr);
        return { exitCode: reply.exitCode, stdout: reply.stdout ?? '', stderr: reply.stderr ?? '' };
      },
    };
  }
}
