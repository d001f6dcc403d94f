import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllowance, type Allowance } from './allowance.js';

/**
 * What `orgctl guard` keeps between runs, per service, key and person (a hash of the three, so
 * neither the key nor the address is in a file name): the last allowance in the cache directory,
 * what it has already said in the state directory. Files are small JSON, written to a temporary
 * name and renamed over the old one, so a reader (another hook running at the same moment) sees
 * the old file or the new one, never half of one; readable by their owner only.
 */
export interface GuardFiles {
  cache: string;
  state: string;
}

/** How long a cached allowance answers without asking the service. */
export const CACHE_TTL_MS = 30_000;

export function guardFiles(env: NodeJS.ProcessEnv, url: string, key: string, email: string | undefined): GuardFiles {
  const id = fileId(`${url}\0${key}\0${email ?? ''}`);
  const home = env.HOME || os.homedir();
  const cacheDir = env.XDG_CACHE_HOME || path.join(home, '.cache');
  const stateDir = env.XDG_STATE_HOME || path.join(home, '.local', 'state');
  return { cache: path.join(cacheDir, 'orgctl', 'guard', `${id}.json`), state: path.join(stateDir, 'orgctl', 'guard', `${id}.json`) };
}

/**
 * A file name from the service, key and person: two independent 32-bit FNV-1a hashes (64 bits, hex).
 * Not node:crypto, whose loading cost a hook several milliseconds; the name only has to tell
 * connections apart and not show the key, and the files are the owner's alone anyway.
 */
function fileId(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c ^ (a >>> 8), 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

export interface Cached {
  /** Unix milliseconds of the answer. */
  fetchedAt: number;
  allowance: Allowance;
}

export function readCache(file: string): Cached | undefined {
  const v = readJson(file) as { fetchedAt?: unknown; allowance?: unknown } | undefined;
  if (typeof v?.fetchedAt !== 'number') return undefined;
  const allowance = parseAllowance(v.allowance);
  return allowance ? { fetchedAt: v.fetchedAt, allowance } : undefined;
}

export function writeCache(file: string, cached: Cached): void {
  writeJson(file, cached);
}

/** What the hook has said, so that each thing is said once. */
export interface GuardState {
  /** The period (periodStart) the warned thresholds belong to. */
  period?: string;
  /** Thresholds (percent) already warned about in that period; 100 is the spent allowance in warn mode. */
  warned: number[];
  /** Said that the service cannot be reached (cleared by the next answer). */
  unreachableSaid?: boolean;
  /** Said that the key was refused or the allowance could not be read (cleared by the next answer). */
  refusedSaid?: boolean;
}

export function readState(file: string): GuardState {
  const v = readJson(file) as Partial<GuardState> | undefined;
  return {
    ...(typeof v?.period === 'string' ? { period: v.period } : {}),
    warned: Array.isArray(v?.warned) ? v.warned.filter((t): t is number => typeof t === 'number') : [],
    ...(v?.unreachableSaid === true ? { unreachableSaid: true } : {}),
    ...(v?.refusedSaid === true ? { refusedSaid: true } : {}),
  };
}

export function writeState(file: string, state: GuardState): void {
  writeJson(file, state);
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Best effort: a hook whose cache cannot be written still answers. */
function writeJson(file: string, value: unknown): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, JSON.stringify(value), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Nothing more to do: the next run tries again.
    }
  }
}
