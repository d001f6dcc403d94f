import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../src/core/process/run-process.js';
import { shellQuote } from '../../src/core/process/shell-quote.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const env = { PATH: process.env.PATH };
const sh = (line: string) => ['-c', line];
const pidIn = (file: string) => Number(readFileSync(file, 'utf8'));
const gone = async (pid: number) => {
  // A killed child may linger briefly as a zombie until it is reaped.
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
};

describe('the process runner', () => {
  it('passes arguments as a list, unquoted, and stdin as given', async () => {
    const r = await runProcess('/bin/sh', ['-c', 'printf "%s|" "$@"; cat', 'sh', "it's", '$HOME', 'a b'], { env, input: 'from stdin' });
    expect(r).toMatchObject({ exitCode: 0, signal: null, timedOut: false, aborted: false, stdout: "it's|$HOME|a b|from stdin", stderr: '' });
  });

  it('reports a program that cannot start, without rejecting', async () => {
    const r = await runProcess('orgctl-no-such-program', [], { env });
    expect(r.startError?.code).toBe('ENOENT');
    expect(r.exitCode).toBeNull();
  });

  it('keeps the first or the last bytes of a stream, or none, and says what it dropped', async () => {
    const line = 'for i in $(seq 1 1000); do echo "line $i"; done';
    const first = await runProcess('/bin/sh', sh(`${line}; ${line} >&2`), { env, stdout: { first: 10 }, stderr: { last: 10 } });
    expect(first.stdout).toBe('line 1\nlin');
    expect(first.stderr).toBe('line 1000\n');
    expect(first.truncated).toEqual({ stdout: true, stderr: true });
    const none = await runProcess('/bin/sh', sh(line), { env, stdout: 'none' });
    expect(none).toMatchObject({ exitCode: 0, stdout: '', truncated: { stdout: false, stderr: false } });
  });

  it('never cuts a character in two when keeping the last bytes', async () => {
    const r = await runProcess('/bin/sh', sh('printf "ééééé"'), { env, stdout: { last: 3 } });
    expect(r.stdout).toBe('é');
  });

  it('streams output as it arrives, with the stream it came from', async () => {
    const seen: string[] = [];
    await runProcess('/bin/sh', sh('echo out; echo err >&2'), { env, onOutput: (chunk, stream) => seen.push(`${stream}:${chunk}`) });
    expect(seen.sort()).toEqual(['stderr:err\n', 'stdout:out\n']);
  });

  it('kills the whole group at the timeout, SIGKILL after the grace for what ignores SIGTERM', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'orgctl-run-'));
    const started = performance.now();
    const r = await runProcess('/bin/sh', sh(`trap '' TERM; sleep 300 & echo $! > ${dir}/child.pid; wait`), { env, timeoutMs: 300, killGraceMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await gone(pidIn(path.join(dir, 'child.pid')))).toBe(true);
  });

  it('kills the whole group when aborted, and tells onStart when it ended', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'orgctl-run-'));
    const stop = new AbortController();
    const events: string[] = [];
    const running = runProcess('/bin/sh', sh(`sleep 300 & echo $! > ${dir}/child.pid; echo started; wait`), {
      env,
      signal: stop.signal,
      killGraceMs: 1000,
      onStart: (pgid) => {
        events.push(`start ${pgid > 0}`);
        return () => events.push('ended');
      },
      onOutput: () => stop.abort(),
    });
    const r = await running;
    expect(r).toMatchObject({ aborted: true, timedOut: false, exitCode: null, signal: 'SIGTERM' });
    expect(events).toEqual(['start true', 'ended']);
    expect(await gone(pidIn(path.join(dir, 'child.pid')))).toBe(true);
  });

  it('settles after the drain when a background process holds the output, and kills it only when asked', async () => {
    for (const killLeftovers of [false, true]) {
      const dir = mkdtempSync(path.join(tmpdir(), 'orgctl-run-'));
      const started = performance.now();
      const r = await runProcess('/bin/sh', sh(`sleep 300 & echo $! > ${dir}/bg.pid; echo done`), { env, drainMs: 200, killLeftovers });
      expect(r).toMatchObject({ exitCode: 0, stdout: 'done\n' });
      expect(performance.now() - started).toBeLessThan(2000);
      const pid = pidIn(path.join(dir, 'bg.pid'));
      if (killLeftovers) expect(await gone(pid)).toBe(true);
      else {
        expect(alive(pid)).toBe(true);
        process.kill(pid, 'SIGKILL');
      }
    }
  });
});

describe('shell quoting', () => {
  it('gives a shell any text back as one word', async () => {
    const words = ["it's", '$(touch x) `id` "q" \\ *', '', 'new\nline'];
    const r = await runProcess('/bin/sh', sh(`printf '%s|' ${words.map(shellQuote).join(' ')}`), { env });
    expect(r.stdout).toBe(words.map((w) => `${w}|`).join(''));
  });
});
