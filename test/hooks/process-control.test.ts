import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SourcedEntry } from '../../src/hooks/config-files.js';
import { hookEvents, type HookEvent } from '../../src/hooks/events.js';
import { selectHooks } from '../../src/hooks/select-hooks.js';
import { waitFor } from '../helpers/wait.js';
import { isRunning, killIfRunning, plan, readPid, run, script, hooksDir } from './helpers.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) killIfRunning(pid);
});

function pidsOf(...files: string[]): number[] {
  const pids = files.map(readPid);
  started.push(...pids);
  return pids;
}

/**
 * The run returns once the shell it started has exited; a process the hook started in turn
 * receives the group's signal at the same time but may take a moment more to die (seen under
 * load), so its end is awaited, within 2 s: one left running (sleeping 30 s) still fails.
 */
const ended = (pid: number) => waitFor(async () => (isRunning(pid) ? undefined : true), 2000, `process ${pid} to end`);

function eventsWith(event: HookEvent, entries: SourcedEntry[]) {
  const events = Object.fromEntries(hookEvents.map((e) => [e, [] as SourcedEntry[]])) as Record<HookEvent, SourcedEntry[]>;
  events[event] = entries;
  return { events };
}

describe('hook timeouts', () => {
  it('kills a hook past its timeout together with the child it started', async () => {
    const dir = hooksDir();
    const hook = script(dir, 'slow.sh', `echo $$ > ${dir}/parent.pid\nsleep 30 &\necho $! > ${dir}/child.pid\nsleep 30`);
    const result = await run('Stop', [plan(hook, 0.5)]);
    const [parent, child] = pidsOf(path.join(dir, 'parent.pid'), path.join(dir, 'child.pid'));
    expect(result.hooks[0]).toMatchObject({ outcome: 'error', timedOut: true, exitCode: null });
    expect(result.hooks[0]!.durationMs).toBeGreaterThanOrEqual(450);
    expect(result.hooks[0]!.durationMs).toBeLessThan(3000);
    expect(result).toMatchObject({ continue: true, blocked: false });
    expect(result.messages[0]).toContain('timed out after 0.5 s');
    await ended(parent!);
    await ended(child!);
  });

  it('follows SIGTERM with SIGKILL for a hook that ignores SIGTERM', async () => {
    const dir = hooksDir();
    const hook = script(dir, 'stubborn.sh', `trap '' TERM\nsleep 30 &\necho $! > ${dir}/child.pid\necho $$ > ${dir}/parent.pid\nwhile true; do sleep 1; done`);
    const result = await run('Stop', [plan(hook, 0.3)], { killGraceMs: 300 });
    const [parent, child] = pidsOf(path.join(dir, 'parent.pid'), path.join(dir, 'child.pid'));
    // The script shrugs SIGTERM off; only the SIGKILL after the grace ends it.
    expect(result.hooks[0]).toMatchObject({ outcome: 'error', timedOut: true });
    expect(result.hooks[0]!.durationMs).toBeGreaterThanOrEqual(550);
    await ended(parent!);
    await ended(child!);
  });

  it('finishes when the shell exits, even if a background process keeps its output open', async () => {
    const dir = hooksDir();
    const result = await run('Stop', [plan(`sleep 30 & echo $! > ${dir}/bg.pid; echo done`)]);
    pidsOf(path.join(dir, 'bg.pid'));
    expect(result.hooks[0]).toMatchObject({ outcome: 'continue', exitCode: 0, timedOut: false, stdout: 'done\n' });
    expect(result.hooks[0]!.durationMs).toBeLessThan(1500);
  });
});

describe('running hooks together', () => {
  it('runs ten one-second hooks in parallel, in about the time of the slowest', async () => {
    const dir = hooksDir();
    const hooks = Array.from({ length: 10 }, (_, i) => plan(script(dir, `h${i}.sh`, `sleep 1; echo ${i}`)));
    const t0 = performance.now();
    const result = await run('Stop', hooks);
    const elapsed = performance.now() - t0;
    expect(result.hooks.map((h) => h.stdout.trim())).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(3000);
  });

  it('runs a command configured several times once, with its longest timeout', async () => {
    const dir = hooksDir();
    const log = path.join(dir, 'runs.log');
    const command = `echo ran >> ${log}`;
    const loaded = eventsWith('Stop', [
      { source: 'user', hooks: [{ type: 'command', command, timeout: 5 }] },
      {
        source: 'project',
        hooks: [
          { type: 'command', command, timeout: 20 },
          { type: 'command', command },
        ],
      },
    ]);
    const planned = selectHooks(loaded, 'Stop');
    expect(planned).toEqual([{ command, timeoutMs: 60_000, matcher: '', source: 'user' }]);
    await run('Stop', planned);
    expect(readFileSync(log, 'utf8')).toBe('ran\n');
  });
});

describe('matchers', () => {
  const loaded = eventsWith('PreToolUse', [
    { source: 's', matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'edit-or-write' }] },
    { source: 's', matcher: '*', hooks: [{ type: 'command', command: 'star' }] },
    { source: 's', matcher: '', hooks: [{ type: 'command', command: 'empty' }] },
    { source: 's', hooks: [{ type: 'command', command: 'absent' }] },
    { source: 's', matcher: 'mcp__.*', hooks: [{ type: 'command', command: 'mcp' }] },
  ]);
  const commandsFor = (tool: string) => selectHooks(loaded, 'PreToolUse', tool).map((h) => h.command);

  it('matches the whole tool name, case-sensitively; *, empty and absent match all', () => {
    expect(commandsFor('Edit')).toEqual(['edit-or-write', 'star', 'empty', 'absent']);
    expect(commandsFor('MultiEdit')).toEqual(['star', 'empty', 'absent']);
    expect(commandsFor('edit')).toEqual(['star', 'empty', 'absent']);
    expect(commandsFor('mcp__github__pr')).toEqual(['star', 'empty', 'absent', 'mcp']);
  });

  it('ignores matchers on events that have no tool', () => {
    const stop = eventsWith('Stop', [{ source: 's', matcher: 'Nothing', hooks: [{ type: 'command', command: 'x' }] }]);
    expect(selectHooks(stop, 'Stop', 'Edit').map((h) => h.command)).toEqual(['x']);
  });
});
