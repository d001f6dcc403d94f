import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { plan, run, script, hooksDir } from './helpers.js';

describe('hook outcomes', () => {
  it('lets the agent continue when every hook exits 0', async () => {
    const dir = hooksDir();
    const result = await run('Stop', [plan(script(dir, 'ok.sh', 'echo fine; exit 0'))]);
    expect(result).toMatchObject({ event: 'Stop', continue: true, blocked: false, reasons: [], messages: [] });
    expect(result.hooks[0]).toMatchObject({ outcome: 'continue', exitCode: 0, timedOut: false, stdout: 'fine\n' });
    expect(result.decision).toBeUndefined();
  });

  it('blocks Stop on exit 2 with stderr as the reason', async () => {
    const dir = hooksDir();
    const result = await run('Stop', [plan(script(dir, 'tests.sh', 'echo "3 tests fail" >&2; exit 2'))]);
    expect(result).toMatchObject({ continue: true, blocked: true, decision: 'block', reasons: ['3 tests fail'] });
    expect(result.hooks[0]).toMatchObject({ outcome: 'block', exitCode: 2 });
  });

  it('blocks SubagentStop on exit 2 too', async () => {
    const dir = hooksDir();
    const result = await run('SubagentStop', [plan(script(dir, 'no.sh', 'echo "not yet" >&2; exit 2'))]);
    expect(result).toMatchObject({ blocked: true, reasons: ['not yet'] });
  });

  it('does not block on exit 2 from a Notification hook, and shows its stderr', async () => {
    const dir = hooksDir();
    const result = await run('Notification', [plan(script(dir, 'n.sh', 'echo "no display" >&2; exit 2'))]);
    expect(result).toMatchObject({ continue: true, blocked: false, reasons: [] });
    expect(result.hooks[0]).toMatchObject({ outcome: 'error', exitCode: 2 });
    expect(result.messages).toEqual([expect.stringContaining('no display')]);
  });

  it('treats exit 1 as a non-blocking error whose stderr is shown', async () => {
    const dir = hooksDir();
    const hook = script(dir, 'fail.sh', 'echo "lint crashed" >&2; exit 1');
    const result = await run('Stop', [plan(hook)]);
    expect(result).toMatchObject({ continue: true, blocked: false });
    expect(result.hooks[0]).toMatchObject({ outcome: 'error', exitCode: 1, stderr: 'lint crashed\n' });
    expect(result.messages).toEqual([`Hook "${hook}" failed with exit code 1: lint crashed`]);
  });

  it('stops the agent on JSON "continue": false, with the stopReason for the user', async () => {
    const dir = hooksDir();
    const hook = script(dir, 'halt.sh', `echo '{"continue": false, "stopReason": "budget spent", "systemMessage": "bye"}'`);
    const result = await run('Stop', [plan(hook)]);
    expect(result).toMatchObject({ continue: false, blocked: false, stopReason: 'budget spent', messages: ['bye'] });
    expect(result.hooks[0]?.outcome).toBe('stop');
  });

  it('lets "continue": false win over another hook blocking Stop', async () => {
    const dir = hooksDir();
    const result = await run('Stop', [plan(script(dir, 'halt.sh', `echo '{"continue": false}'`)), plan(script(dir, 'block.sh', 'echo more >&2; exit 2'))]);
    expect(result).toMatchObject({ continue: false, blocked: false, reasons: [] });
  });

  it('keeps a tool blocked when a PreToolUse hook stops the agent', async () => {
    const dir = hooksDir();
    const result = await run('PreToolUse', [plan(script(dir, 'halt.sh', `echo '{"continue": false, "stopReason": "no"}'`))]);
    expect(result).toMatchObject({ continue: false, blocked: true, decision: 'block', stopReason: 'no' });
  });

  it('blocks on JSON "decision": "block" with its reason, and records "approve"', async () => {
    const dir = hooksDir();
    const blocking = await run('Stop', [plan(script(dir, 'd.sh', `echo '{"decision": "block", "reason": "run the tests first"}'`))]);
    expect(blocking).toMatchObject({ blocked: true, decision: 'block', reasons: ['run the tests first'] });
    const approving = await run('PreToolUse', [plan(script(dir, 'a.sh', `echo '{"decision": "approve"}'`))]);
    expect(approving).toMatchObject({ blocked: false, decision: 'approve' });
  });

  it('ignores "decision": "block" on an event that cannot be blocked', async () => {
    const dir = hooksDir();
    const result = await run('SessionEnd', [plan(script(dir, 'd.sh', `echo '{"decision": "block", "reason": "x"}'`))]);
    expect(result).toMatchObject({ blocked: false, reasons: [] });
    expect(result.hooks[0]?.outcome).toBe('continue');
  });

  it('treats invalid JSON on stdout as plain output', async () => {
    const dir = hooksDir();
    const result = await run('Stop', [plan(script(dir, 'j.sh', `echo '{"continue": false, oops'`))]);
    expect(result).toMatchObject({ continue: true, blocked: false, messages: [] });
    expect(result.hooks[0]).toMatchObject({ outcome: 'continue', stdout: '{"continue": false, oops\n' });
  });

  it('ignores a mistyped JSON field but keeps the others', async () => {
    const dir = hooksDir();
    const result = await run('Stop', [plan(script(dir, 'j.sh', `echo '{"continue": "no", "systemMessage": "hello"}'`))]);
    expect(result).toMatchObject({ continue: true, messages: ['hello'] });
  });

  it('reads JSON only on exit 0', async () => {
    const dir = hooksDir();
    const result = await run('Stop', [plan(script(dir, 'j.sh', `echo '{"continue": false}'; exit 1`))]);
    expect(result).toMatchObject({ continue: true, blocked: false });
    expect(result.hooks[0]?.outcome).toBe('error');
  });

  it('runs a hook that never reads stdin without an EPIPE crash, even with a large input', async () => {
    const dir = hooksDir();
    const hook = plan(script(dir, 'deaf.sh', 'exit 0'));
    const big = { hook_event_name: 'Stop' as const, session_id: 'x'.repeat(1_000_000), cwd: dir };
    const result = await run('Stop', [hook], { input: big });
    expect(result.hooks[0]).toMatchObject({ outcome: 'continue', exitCode: 0 });
  });

  it('gives the JSON input on stdin and closes it, so `cat > file` ends', async () => {
    const dir = hooksDir();
    const out = path.join(dir, 'input.json');
    const result = await run('Notification', [plan(`cat > ${out}`, 5)], { cwd: dir });
    expect(result.hooks[0]).toMatchObject({ outcome: 'continue', timedOut: false });
    expect(result.hooks[0]!.durationMs).toBeLessThan(2000);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ hook_event_name: 'Notification', session_id: 'sess-1', cwd: dir, message: 'waiting for you' });
  });

  it('runs hooks in the project directory with ORGCTL_PROJECT_DIR set', async () => {
    const dir = hooksDir();
    const result = await run('Stop', [plan('echo "$PWD|$ORGCTL_PROJECT_DIR"')], { cwd: dir });
    expect(result.hooks[0]?.stdout.trim()).toBe(`${dir}|${dir}`);
  });

  it('does not pass the service key to hooks', async () => {
    const result = await run('Stop', [plan('echo "key=${ORGCTL_API_KEY:-none}"')], { env: { PATH: process.env.PATH, ORGCTL_API_KEY: 'k' } });
    expect(result.hooks[0]?.stdout.trim()).toBe('key=none');
  });

  it('reports a shell that cannot start as a non-blocking error', async () => {
    const result = await run('Stop', [plan('true')], { shell: '/nonexistent/shell' });
    expect(result).toMatchObject({ continue: true, blocked: false });
    expect(result.hooks[0]).toMatchObject({ outcome: 'error', exitCode: null });
    expect(result.messages[0]).toMatch(/could not start/);
  });

  it('keeps only the first bytes of a flood of output and still lets the hook finish', async () => {
    const result = await run('Stop', [plan('head -c 300000 /dev/zero | tr "\\0" a; echo done >&2')], { maxOutputBytes: 1000 });
    expect(result.hooks[0]).toMatchObject({ outcome: 'continue', outputTruncated: true, stderr: 'done\n' });
    expect(result.hooks[0]?.stdout).toHaveLength(1000);
  });

  it('lets one failing hook not stop the others', async () => {
    const dir = hooksDir();
    const result = await run('Stop', [plan('kill -9 $$'), plan(script(dir, 'ok.sh', 'echo ok')), plan('exit 7')]);
    expect(result.hooks.map((h) => [h.outcome, h.exitCode, h.signal])).toEqual([
      ['error', null, 'SIGKILL'],
      ['continue', 0, null],
      ['error', 7, null],
    ]);
    expect(result.messages).toHaveLength(2);
  });
});
