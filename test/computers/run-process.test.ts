import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runStepProcess } from '../../src/computers/agent/run-process.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the host agent runs an install command', () => {
  it('settles when the command exits, even if it left a background process holding the output', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'orgctl-run-'));
    let output = '';
    const result = await runStepProcess(['/bin/sh', '-c', `sleep 300 & echo $! > ${dir}/bg.pid; echo installed`], {
      cwd: dir,
      env: { PATH: process.env.PATH },
      signal: new AbortController().signal,
      onOutput: (chunk) => (output += chunk),
    });
    expect(result.exitCode).toBe(0);
    expect(output).toContain('installed');
    const pid = Number(readFileSync(path.join(dir, 'bg.pid'), 'utf8'));
    // The leftover is killed with the group (a zombie may linger briefly until it is reaped).
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
  });

  it('reports the exit code and the tail of stderr of a failing command', async () => {
    const result = await runStepProcess(['/bin/sh', '-c', 'echo broken >&2; exit 3'], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH },
      signal: new AbortController().signal,
      onOutput: () => undefined,
    });
    expect(result).toMatchObject({ exitCode: 3, stderr: 'broken\n' });
  });
});
