import type { Sandbox } from 'e2b';

/** The SDK is loaded on the first call: most processes (the CLI, a server without E2B) never make one. */
const sdk = () => import('e2b');

/** What the e2b provider needs of the E2B cloud; the SDK implements it below, tests use a double. */
export interface E2bSandbox {
  readonly sandboxId: string;
  /**
   * Runs a shell command; resolves with its exit code (non-zero is not an exception). When
   * `signal` aborts, the command is killed, and the call resolves with the killed command's code.
   */
  run(
    cmd: string,
    opts: { cwd?: string; user?: string; timeoutMs?: number; onOutput?: (chunk: string) => void; signal?: AbortSignal },
  ): Promise<{ exitCode: number; stdout: string; stderr: string }>;
}

export interface E2bClient {
  create(opts: { template: string; metadata: Record<string, string> }): Promise<E2bSandbox>;
  connect(sandboxId: string): Promise<E2bSandbox>;
  kill(sandboxId: string): Promise<void>;
}

/** The official SDK, authenticated with E2B_API_KEY. */
export class SdkE2bClient implements E2bClient {
  constructor(private readonly apiKey: string) {}

  async create(opts: { template: string; metadata: Record<string, string> }): Promise<E2bSandbox> {
    // Sandboxes live until DELETE; an hour at a time, renewed by the SDK default when reconnected.
    const { Sandbox } = await sdk();
    return wrap(await Sandbox.create(opts.template, { apiKey: this.apiKey, metadata: opts.metadata, timeoutMs: 60 * 60 * 1000 }));
  }

  async connect(sandboxId: string): Promise<E2bSandbox> {
    const { Sandbox } = await sdk();
    return wrap(await Sandbox.connect(sandboxId, { apiKey: this.apiKey }));
  }

  async kill(sandboxId: string): Promise<void> {
    const { Sandbox } = await sdk();
    await Sandbox.kill(sandboxId, { apiKey: this.apiKey });
  }
}

function wrap(sandbox: Sandbox): E2bSandbox {
  return {
    sandboxId: sandbox.sandboxId,
    async run(cmd, opts) {
      // Started in the background, so that an abort can kill the process in the sandbox: aborting
      // only the request would leave it running beside the retry of the step.
      const { CommandExitError } = await sdk();
      const handle = await sandbox.commands.run(cmd, {
        background: true,
        cwd: opts.cwd,
        user: opts.user,
        timeoutMs: opts.timeoutMs ?? 0,
        onStdout: opts.onOutput,
        onStderr: opts.onOutput,
      });
      const kill = () => void handle.kill().catch(() => undefined);
      if (opts.signal?.aborted) kill();
      opts.signal?.addEventListener('abort', kill, { once: true });
      try {
        const r = await handle.wait();
        return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
      } catch (e) {
        if (e instanceof CommandExitError) return { exitCode: e.exitCode, stdout: e.stdout, stderr: e.stderr };
        throw e;
      } finally {
        opts.signal?.removeEventListener('abort', kill);
      }
    },
  };
}
