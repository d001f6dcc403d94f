import { readClientConfig } from '../cli/api/client-config.js';
import { fetchAllowance, type Enforcement, type Fetched } from './allowance.js';
import { decide, type Answer } from './decide.js';
import { CACHE_TTL_MS, guardFiles, readCache, readState, writeCache, writeState, type Cached } from './disk.js';
import { statusLine } from './messages.js';

const GUARD_EVENTS = ['prompt', 'session-start', 'tool', 'status-line', 'repository'] as const;
const GUARD_CLIENTS = ['claude-code', 'codex', 'gemini-cli', 'droid'] as const;

/**
 * `orgctl guard EVENT --client CLIENT [--email E]`: the enforcement hook an agent client runs
 * (docs/guard.md). Kept light: main.ts loads it before anything else, and it loads node's fs (and
 * http only for a request) and nothing of the command model, the API client, TypeBox or ajv.
 *
 * Exit codes: 0 go on (a line for the person, if any, as JSON `systemMessage` on stdout); 2
 * blocked (the line on stderr), the block every one of the four clients documents for its
 * prompt and tool hooks. A usage error is exit 1, not 2, so that a mistake in a hook command
 * never blocks a prompt; `status-line` and `repository` (the SessionStart record of the session's
 * repository, ./repository.ts) always exit 0.
 */
/*
 * Except for `repository`, which needs its session id and directory, the hook's JSON on stdin is
 * never read: nothing in it changes the answer (the allowance is the person's, whatever the
 * prompt), a client that kept stdin open would hold a hook that waited for
 * its end, and process.stdin on a pipe loads node's net and stream modules, a few milliseconds of
 * every prompt. The clients write it into the pipe and go on, as for any hook that ignores it.
 */
export async function guardCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let values: { client?: string; email?: string };
  let event: string | undefined;
  try {
    const parsed = parseGuardArgs(argv);
    values = parsed.values;
    event = parsed.positionals[0];
    if (parsed.positionals.length !== 1 || !(GUARD_EVENTS as readonly string[]).includes(event ?? ''))
      throw new Error(`EVENT must be one of ${GUARD_EVENTS.join(', ')}`);
    if (values.client !== undefined && !(GUARD_CLIENTS as readonly string[]).includes(values.client))
      throw new Error(`--client must be one of ${GUARD_CLIENTS.join(', ')}`);
  } catch (e) {
    process.stderr.write(`orgctl guard: ${(e as Error).message}\n`);
    return event === 'status-line' || event === 'repository' ? 0 : 1;
  }
  if (event === 'repository') {
    await (await import('./repository.js')).recordRepository(connection(env), env, values.email);
    return 0;
  }
  if (event === 'status-line') {
    process.stdout.write(`${await statusText(values, env)}\n`);
    return 0;
  }
  const { url = '', key = '' } = connection(env);
  const files = guardFiles(env, url, key, values.email);
  const { answer, cached } =
    url && key ? await allowance(files.cache, url, key, values.email) : { answer: { kind: 'not-configured' } as const, cached: undefined };
  const state = readState(files.state);
  const decision = decide(answer, state, url, cached?.allowance.enforcement ?? rolloutPolicy(env));
  if (JSON.stringify(decision.state) !== JSON.stringify(state)) writeState(files.state, decision.state);
  return render(decision, event ?? 'prompt');
}

/** `EVENT --client C --email E` (also `--client=C`); by hand, since node:util alone cost a hook a few milliseconds to load. */
function parseGuardArgs(argv: string[]): { positionals: string[]; values: { client?: string; email?: string } } {
  const positionals: string[] = [];
  const values: { client?: string; email?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--(client|email)(?:=(.*))?$/.exec(arg);
    if (m) {
      const value = m[2] ?? argv[++i];
      if (value === undefined) throw new Error(`--${m[1]} needs a value`);
      values[m[1] as 'client' | 'email'] = value;
    } else if (arg.startsWith('-')) throw new Error(`unknown flag ${arg}`);
    else positionals.push(arg);
  }
  return { positionals, values };
}

/** A block stops a prompt or a tool call; at session start (Droid) nothing can be blocked, so it is said instead. */
function render(decision: { block?: string; say?: string }, event: string): number {
  if (decision.block !== undefined && event !== 'session-start') {
    process.stderr.write(`${decision.block}\n`);
    return 2;
  }
  const say = decision.block ?? decision.say;
  if (say !== undefined) process.stdout.write(`${JSON.stringify({ systemMessage: say })}\n`);
  return 0;
}

/**
 * The policy a managed rollout set (`ORGCTL_UNREACHABLE=closed`, written by `orgctl connect
 * --managed`), for a hook that has no answer of the service yet to know it from: a guard pointed
 * at a new address, or whose key is refused from the start, is closed before its first answer.
 */
function rolloutPolicy(env: NodeJS.ProcessEnv): Enforcement | undefined {
  return env.ORGCTL_UNREACHABLE === 'closed' ? { mode: 'block', thresholds: [], unreachable: 'closed' } : undefined;
}

/** As every command over the API: ORGCTL_URL and ORGCTL_API_KEY, else what `orgctl login` stored. */
function connection(env: NodeJS.ProcessEnv): { url?: string; key?: string } {
  const pick = (...v: (string | undefined)[]) => v.find((x) => x !== undefined && x !== '');
  const stored = env.ORGCTL_URL && env.ORGCTL_API_KEY ? undefined : readClientConfig(env);
  return { url: pick(env.ORGCTL_URL, stored?.url), key: pick(env.ORGCTL_API_KEY, stored?.key) };
}

/** The cached allowance while it is fresh, else one request (and the cache refreshed on an answer). */
async function allowance(cacheFile: string, url: string, key: string, email: string | undefined): Promise<{ answer: Answer; cached?: Cached }> {
  const cached = readCache(cacheFile);
  const now = Date.now();
  if (cached && now - cached.fetchedAt >= 0 && now - cached.fetchedAt < CACHE_TTL_MS) return { answer: { kind: 'ok', allowance: cached.allowance }, cached };
  const fetched: Fetched = await fetchAllowance(url, key, email);
  if (fetched.kind === 'ok') writeCache(cacheFile, { fetchedAt: Date.now(), allowance: fetched.allowance });
  return { answer: fetched, cached };
}

/** Claude Code's status line: one short line, whatever happens. */
async function statusText(values: { email?: string }, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { url, key } = connection(env);
    if (!url || !key) return 'orgctl: not logged in';
    const { answer } = await allowance(guardFiles(env, url, key, values.email).cache, url, key, values.email);
    if (answer.kind === 'ok') return statusLine(answer.allowance);
    if (answer.kind === 'unreachable') return 'orgctl: unreachable';
    return answer.kind === 'refused' && (answer.status === 401 || answer.status === 403) ? 'orgctl: key refused' : 'orgctl: no allowance';
  } catch {
    return 'orgctl: unavailable';
  }
}
