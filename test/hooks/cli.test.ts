import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertFreshBuild, orgctl } from './cli-process.js';
import { script, hooksDir, writeJson } from './helpers.js';

beforeAll(assertFreshBuild);

function config(dir: string, event: string, ...commands: string[]): string {
  return writeJson(dir, `${event}-${commands.length}.json`, { hooks: { [event]: [{ hooks: commands.map((command) => ({ type: 'command', command })) }] } });
}

describe('orgctl hooks run', () => {
  it('exits 2 and prints the reason when a Stop hook blocks', async () => {
    const dir = hooksDir();
    const file = config(dir, 'Stop', script(dir, 'block.sh', 'echo "fix the build" >&2; exit 2'), 'true');
    const r = await orgctl(['hooks', 'run', 'Stop', '--config', file, '--session-id', 's1']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ event: 'Stop', continue: true, blocked: true, reasons: ['fix the build'] });
  });

  it('exits 0 when the hooks let the agent continue, and sends them the event input', async () => {
    const dir = hooksDir();
    const input = path.join(dir, 'input.json');
    const file = config(dir, 'Notification', `cat > ${input}`);
    const r = await orgctl(['hooks', 'run', 'Notification', '--config', file, '--session-id', 's1', '--cwd', dir, '--message', 'Agent needs your input']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ continue: true, blocked: false, hooks: [{ exitCode: 0 }] });
    expect(JSON.parse(readFileSync(input, 'utf8'))).toEqual({ hook_event_name: 'Notification', session_id: 's1', cwd: dir, message: 'Agent needs your input' });
  });

  it('gives SessionEnd its reason, Stop its stop_hook_active, and tool events their tool name', async () => {
    const dir = hooksDir();
    const read = async (event: string, ...flags: string[]) => {
      const file = config(dir, event, `cat > ${dir}/${event}.json`);
      const r = await orgctl(['hooks', 'run', event, '--config', file, '--session-id', 's', '--cwd', dir, ...flags]);
      expect(r.code).toBe(0);
      return JSON.parse(readFileSync(`${dir}/${event}.json`, 'utf8'));
    };
    const [sessionEnd, stop, subagentStop, postToolUse] = await Promise.all([
      read('SessionEnd', '--reason', 'error'),
      read('Stop', '--stop-hook-active'),
      read('SubagentStop'),
      read('PostToolUse', '--tool-name', 'Bash'),
    ]);
    expect(sessionEnd).toMatchObject({ reason: 'error' });
    expect(stop).toMatchObject({ stop_hook_active: true });
    expect(subagentStop).toMatchObject({ stop_hook_active: false });
    expect(postToolUse).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Bash' });
  });

  it('runs only the tool hooks whose matcher matches --tool-name', async () => {
    const dir = hooksDir();
    const file = writeJson(dir, 'tools.json', {
      PreToolUse: [
        { matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'echo write-or-edit' }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo bash' }] },
      ],
    });
    const r = await orgctl(['hooks', 'run', 'PreToolUse', '--config', file, '--tool-name', 'Edit']);
    expect(JSON.parse(r.stdout).hooks.map((h: { stdout: string }) => h.stdout)).toEqual(['write-or-edit\n']);
  });

  it('exits 1, never 2, for a usage error, so a client mistake cannot look like a block', async () => {
    const [missingTool, unknown] = await Promise.all([orgctl(['hooks', 'run', 'PreToolUse']), orgctl(['hooks', 'run', 'Stopp'])]);
    expect(missingTool).toMatchObject({ code: 1, stdout: '', stderr: '--tool-name is required for PreToolUse.\n' });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown event "Stopp"');
  });

  it('exits 1 and runs nothing when the configuration is invalid', async () => {
    const dir = hooksDir();
    const file = writeJson(dir, 'bad.json', {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: `touch ${dir}/ran` },
              { type: 'command', command: 'x', timeout: -5 },
            ],
          },
        ],
      },
    });
    const r = await orgctl(['hooks', 'run', 'Stop', '--config', file]);
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: `${file}: /hooks/Stop/0/hooks/1/timeout must be a number of seconds > 0 and <= 2147483\n` });
    expect(() => readFileSync(`${dir}/ran`)).toThrow();
  });

  it('reads the user file under HOME, then the project file, when no --config is given', async () => {
    const home = hooksDir();
    const project = hooksDir();
    mkdirSync(path.join(home, '.orgctl'));
    mkdirSync(path.join(project, '.orgctl'));
    config(path.join(home, '.orgctl'), 'Stop', 'echo user');
    writeJson(path.join(project, '.orgctl'), 'hooks.json', { Stop: [{ hooks: [{ type: 'command', command: 'echo "project $ORGCTL_PROJECT_DIR"' }] }] });
    const [r, both] = await Promise.all([
      orgctl(['hooks', 'run', 'Stop'], { env: { HOME: home }, cwd: project }),
      orgctl(['hooks', 'run', 'Stop'], { env: { HOME: home, ORGCTL_HOOKS_USER: path.join(home, '.orgctl', 'Stop-1.json') }, cwd: project }),
    ]);
    // The user file is not named hooks.json here, so only the project's runs...
    expect(JSON.parse(r.stdout).hooks.map((h: { stdout: string }) => h.stdout)).toEqual([`project ${project}\n`]);
    // ...until ORGCTL_HOOKS_USER points at it.
    expect(JSON.parse(both.stdout).hooks.map((h: { stdout: string }) => h.stdout)).toEqual(['user\n', `project ${project}\n`]);
  });

  it('succeeds with an empty result when no hook is configured', async () => {
    const dir = hooksDir();
    const r = await orgctl(['hooks', 'run', 'SessionEnd', '--cwd', dir], { env: { HOME: dir } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ continue: true, blocked: false, hooks: [] });
  });
});

describe('orgctl hooks validate and list', () => {
  it('validate exits 0 for a valid file and 1 with every fault of an invalid one', async () => {
    const dir = hooksDir();
    const good = config(dir, 'Stop', 'true');
    const bad = writeJson(dir, 'bad.json', { Stop: [{ matcher: '[', hooks: [{ type: 'agent', command: 'x' }] }], Later: [] });
    const [valid, r, json] = await Promise.all([
      orgctl(['hooks', 'validate', '--config', good]),
      orgctl(['hooks', 'validate', '--config', good, '--config', bad]),
      orgctl(['hooks', 'validate', '--config', bad, '--json']),
    ]);
    expect(valid).toMatchObject({ code: 0, stdout: `Valid: 1 hook in ${good}.\n` });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${bad}: /Later is not a known event`)),
      `${bad}: /Stop/0/hooks/0/type must be "command" (the only hook type)`,
      `${bad}: /Stop/0/matcher is not a valid regular expression (Unterminated character class)`,
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      valid: false,
      errors: [{ file: bad, path: '/Later' }, { path: '/Stop/0/hooks/0/type' }, { path: '/Stop/0/matcher' }],
    });
  });

  it('list shows what would run for each event', async () => {
    const dir = hooksDir();
    const file = writeJson(dir, 'h.json', {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard', timeout: 5 }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'check' }] }],
    });
    const [r, human] = await Promise.all([
      orgctl(['hooks', 'list', '--config', file, '--json']),
      orgctl(['hooks', 'list', '--config', file, '--tool-name', 'Edit']),
    ]);
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout);
    expect(listed.events.PreToolUse).toEqual([{ command: 'guard', matcher: 'Bash', timeoutSeconds: 5, source: file }]);
    expect(listed.events.Stop).toEqual([{ command: 'check', matcher: '', timeoutSeconds: 60, source: file }]);
    expect(listed.events.Notification).toEqual([]);
    expect(human.stdout).toContain('PreToolUse: (none)');
    expect(human.stdout).toContain(`  check  (timeout 60 s, ${file})`);
  });
});
