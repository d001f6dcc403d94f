import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/**
 * The real agent clients, at pinned versions, installed from the npm registry into a cache
 * outside the repository that every test run reuses: `ORGCTL_AGENT_CLIENTS_CACHE`, by default
 * `~/.cache/orgctl-agent-clients`, one directory `NAME@VERSION` per client. The platform binary
 * comes as an optional dependency; no install script runs. What each needs is in
 * ../shared/spec/agent-clients.md.
 */
export type AgentClientName = 'claude-code' | 'codex' | 'gemini-cli' | 'droid';

interface Pin {
  version: string;
  /** What `npm install` gets. */
  packages: string[];
  /** The executable, relative to the install directory. */
  bin: string;
}

export const AGENT_CLIENTS: Record<AgentClientName, Pin> = {
  'claude-code': {
    version: '2.1.328',
    packages: ['@anthropic-ai/claude-code@2.1.328'],
    // Its `bin` is a placeholder its install script replaces; the binary is the platform package's.
    bin: `node_modules/@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`,
  },
  codex: { version: '0.169.0', packages: ['@openai/codex@0.169.0'], bin: 'node_modules/.bin/codex' },
  'gemini-cli': { version: '0.61.0', packages: ['@google/gemini-cli@0.61.0'], bin: 'node_modules/.bin/gemini' },
  // The wrapper's own platform package is missing at 0.225.1.
  droid: { version: '0.225.1', packages: ['@factory/cli@0.225.1', '@factory/cli-linux-x64@0.225.2'], bin: 'node_modules/.bin/droid' },
};

const agentClientsCache = (): string => process.env.ORGCTL_AGENT_CLIENTS_CACHE || path.join(homedir(), '.cache', 'orgctl-agent-clients');

export type Installed = { ok: true; bin: string; version: string } | { ok: false; reason: string };

const MARKER = '.orgctl-installed';
const LOCK_STALE_MS = 10 * 60_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Holds `lock` (a file made exclusively) while `fn` runs; waits for another process holding it. */
function withLock<T>(lock: string, fn: () => T): T {
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { force: true });
      } catch {
        // The holder removed it meanwhile: try again.
      }
      sleepSync(500);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * The client, installed once into the cache (a marker file says the install completed; a lock
 * keeps parallel test files from installing it twice). Not ok with the reason when npm cannot
 * install it (no registry), so the caller can skip saying why.
 */
export function installAgentClient(name: AgentClientName): Installed {
  const pin = AGENT_CLIENTS[name];
  const cache = agentClientsCache();
  const dir = path.join(cache, `${name}@${pin.version}`);
  const bin = path.join(dir, pin.bin);
  if (existsSync(path.join(dir, MARKER)) && existsSync(bin)) return { ok: true, bin, version: pin.version };
  mkdirSync(cache, { recursive: true });
  return withLock(`${dir}.lock`, () => {
    if (existsSync(path.join(dir, MARKER)) && existsSync(bin)) return { ok: true, bin, version: pin.version } as const;
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['install', '--prefix', dir, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...pin.packages], {
      encoding: 'utf8',
      timeout: 5 * 60_000,
    });
    if (r.status !== 0 || !existsSync(bin)) {
      return {
        ok: false,
        reason: `npm install ${pin.packages.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr ?? '').slice(-500)}`,
      } as const;
    }
    writeFileSync(path.join(dir, MARKER), `${pin.packages.join(' ')}\n`);
    return { ok: true, bin, version: pin.version } as const;
  });
}
