import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnCli, type CliResult } from './cli.js';

/** A machine of one person for `orgctl guard`: a home with its own cache, state and configuration. */
export interface GuardHome {
  dir: string;
  cache: string;
  state: string;
}

export function guardHome(root: string): GuardHome {
  const dir = mkdtempSync(path.join(root ?? tmpdir(), 'home-'));
  return { dir, cache: path.join(dir, 'cache'), state: path.join(dir, 'state') };
}

/** `orgctl guard ARGS` as an agent client runs it: the hook's JSON on stdin, logged in through ORGCTL_*. */
export function runGuard(args: string[], o: { home: GuardHome; url: string; key: string; input?: string; env?: Record<string, string> }): Promise<CliResult> {
  return spawnCli(['guard', ...args], {
    cwd: o.home.dir,
    input: o.input ?? JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's1', prompt: 'hello' }),
    env: {
      PATH: process.env.PATH,
      HOME: o.home.dir,
      XDG_CONFIG_HOME: path.join(o.home.dir, 'config'),
      XDG_CACHE_HOME: o.home.cache,
      XDG_STATE_HOME: o.home.state,
      ORGCTL_URL: o.url,
      ORGCTL_API_KEY: o.key,
      ...o.env,
    },
  });
}

/** Makes every cached allowance of `home` older than its time to live, as if the hook last ran a minute ago. */
export function ageCache(home: GuardHome): void {
  const dir = path.join(home.cache, 'orgctl', 'guard');
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const cached = JSON.parse(readFileSync(file, 'utf8')) as { fetchedAt: number };
    writeFileSync(file, JSON.stringify({ ...cached, fetchedAt: cached.fetchedAt - 60_000 }));
  }
}

/** The line a hook shows the person, from its JSON `systemMessage` on stdout. */
export function systemMessage(r: CliResult): string | undefined {
  if (r.stdout.trim() === '') return undefined;
  return (JSON.parse(r.stdout) as { systemMessage?: string }).systemMessage;
}
