import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { MAIN } from './cli.js';

export interface AgentProcess {
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `orgctl agent` the way a user would on the machine of a byom computer. */
export function startAgent(args: { url: string; key: string; computer: string; workdir: string }, env: Record<string, string> = {}): AgentProcess {
  const child = spawn(process.execPath, [MAIN, 'agent', '--url', args.url, '--key', args.key, '--computer', args.computer, '--workdir', args.workdir], {
    // npm must not reach the network for audit, funding or update notices: the tests run offline.
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_offline: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return {
    process: child,
    output: () => out,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A local git repository (committed) holding `files`; returns its file:// URL. */
export function makeGitRepo(dir: string, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  const git = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...a], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return `file://${dir}`;
}

/** A Node project with a zero-dependency lockfile (so `npm ci` works offline) and a preinstall script. */
export function nodeProject(name: string, preinstall: string): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name, version: '1.0.0', private: true, scripts: { preinstall } }, null, 2),
    'package-lock.json': JSON.stringify(
      { name, version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name, version: '1.0.0', hasInstallScript: true } } },
      null,
      2,
    ),
  };
}

/** A TCP port that was free a moment ago, for a server that must come back on the same address. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
