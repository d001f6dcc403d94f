import fc from 'fast-check';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultHookFiles, loadHooksConfig } from '../../src/hooks/config-files.js';
import { hookEvents } from '../../src/hooks/events.js';
import { formatIssue, HooksConfigError, validateHooksDocument } from '../../src/hooks/validate-config.js';
import { hooksDir, writeJson } from './helpers.js';

const ok = { type: 'command', command: 'echo ok' };

/** The messages a document gets, formatted as the user sees them. */
function messages(doc: unknown, file = '/p/hooks.json'): string[] {
  return validateHooksDocument(doc, file).issues.map(formatIssue);
}

async function loadError(files: string[]): Promise<string> {
  const error = await loadHooksConfig(files.map((p) => ({ path: p, explicit: true }))).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HooksConfigError);
  return (error as Error).message;
}

describe('hook configuration validation', () => {
  it('accepts the map under "hooks" and ignores other top-level settings', () => {
    const { hooks, issues } = validateHooksDocument({ model: 'x', hooks: { Stop: [{ hooks: [ok] }] } }, 'f');
    expect(issues).toEqual([]);
    expect(hooks.Stop?.[0]?.hooks[0]?.command).toBe('echo ok');
  });

  it('accepts the event map at the top level', () => {
    const { hooks, issues } = validateHooksDocument({ Notification: [{ matcher: '', hooks: [{ ...ok, timeout: 0.5 }] }] }, 'f');
    expect(issues).toEqual([]);
    expect(hooks.Notification?.[0]?.hooks[0]?.timeout).toBe(0.5);
  });

  it('names an unknown event with its file and path', () => {
    expect(messages({ hooks: { Stopp: [] } })).toEqual([
      '/p/hooks.json: /hooks/Stopp is not a known event (events: PreToolUse, PostToolUse, Notification, Stop, SubagentStop, SessionEnd)',
    ]);
  });

  it('rejects a hook type other than "command"', () => {
    expect(messages({ hooks: { Stop: [{ hooks: [ok, { type: 'prompt', command: 'x' }] }] } })).toEqual([
      '/p/hooks.json: /hooks/Stop/0/hooks/1/type must be "command" (the only hook type)',
    ]);
  });

  it('rejects a missing or empty command', () => {
    expect(messages({ Stop: [{ hooks: [{ type: 'command' }, { type: 'command', command: '' }] }] })).toEqual([
      '/p/hooks.json: /Stop/0/hooks/0/command is required and must be a non-empty string',
      '/p/hooks.json: /Stop/0/hooks/1/command must be a non-empty string',
    ]);
  });

  it.each([[-1], [0], ['10'], [null], [3e9]])('rejects the timeout %s', (timeout) => {
    expect(messages({ hooks: { SessionEnd: [{ hooks: [{ ...ok, timeout }] }] } })).toEqual([
      '/p/hooks.json: /hooks/SessionEnd/0/hooks/0/timeout must be a number of seconds > 0 and <= 2147483',
    ]);
  });

  it('rejects a matcher that is not a regular expression, without echoing it', () => {
    const found = messages({ hooks: { PreToolUse: [{ matcher: 'Edit|(Write', hooks: [ok] }] } });
    expect(found).toEqual(['/p/hooks.json: /hooks/PreToolUse/0/matcher is not a valid regular expression (Unterminated group)']);
  });

  it('rejects a pattern that only a wrapping group would make valid', () => {
    expect(messages({ PostToolUse: [{ matcher: 'a)(b', hooks: [ok] }] })).toHaveLength(1);
  });

  it('rejects wrong shapes at every level', () => {
    expect(messages([])).toEqual(['/p/hooks.json: the top level must be a JSON object: {"hooks": {EVENT: [entry, ...]}} or {EVENT: [entry, ...]}']);
    expect(messages({ hooks: [] })).toEqual(['/p/hooks.json: /hooks must be an object mapping event names to arrays of entries']);
    expect(messages({ Stop: {} })).toEqual(['/p/hooks.json: /Stop must be an array of entries']);
    expect(messages({ Stop: ['echo'] })).toEqual(['/p/hooks.json: /Stop/0 must be an object {"matcher"?: ..., "hooks": [...]}']);
    expect(messages({ Stop: [{ hooks: 'echo' }] })).toEqual(['/p/hooks.json: /Stop/0/hooks must be an array of hooks']);
    expect(messages({ Stop: [{ hooks: [ok], matcher: 1 }] })).toEqual([
      '/p/hooks.json: /Stop/0/matcher must be a string (a regular expression on the tool name)',
    ]);
  });

  it('rejects a misspelt property instead of silently ignoring it', () => {
    expect(messages({ Stop: [{ hooks: [{ ...ok, timout: 5 }] }] })).toEqual(['/p/hooks.json: /Stop/0/hooks/0/timout is not a known property']);
  });

  it('reports every fault of a document, one per path, in the same order as before the precompiled validators', () => {
    const doc = { Stop: [{ hooks: [{ type: 'prompt', timeout: -1, x: 1 }], matcher: 1, y: 2 }], Bogus: 1, Notification: {} };
    expect(messages(doc).map((m) => m.replace(/ \(events: .*\)$/, ''))).toEqual([
      '/p/hooks.json: /Bogus is not a known event',
      '/p/hooks.json: /Notification must be an array of entries',
      '/p/hooks.json: /Stop/0/y is not a known property',
      '/p/hooks.json: /Stop/0/matcher must be a string (a regular expression on the tool name)',
      '/p/hooks.json: /Stop/0/hooks/0/command is required and must be a non-empty string',
      '/p/hooks.json: /Stop/0/hooks/0/x is not a known property',
      '/p/hooks.json: /Stop/0/hooks/0/type must be "command" (the only hook type)',
      '/p/hooks.json: /Stop/0/hooks/0/timeout must be a number of seconds > 0 and <= 2147483',
    ]);
  });

  it('points out an event left outside "hooks"', () => {
    expect(messages({ hooks: {}, Stop: [] })).toEqual(['/p/hooks.json: /Stop is an event outside "hooks"; move it into the "hooks" object']);
  });

  it('never prints the command, even from a broken entry', () => {
    const secret = 'curl -H "Authorization: Bearer s3cr3t-token"';
    const all = messages({ Stop: [{ hooks: [{ type: 'prompt', command: secret, timeout: -1, extra: secret }] }] }).join('\n');
    expect(all).not.toContain('s3cr3t');
  });

  it('reports every fault in every file at once, each under its own file name', async () => {
    const dir = hooksDir();
    const a = writeJson(dir, 'a.json', { Stop: [{ hooks: [{ type: 'command' }] }] });
    const b = writeJson(dir, 'b.json', { hooks: { Bogus: [] } });
    expect((await loadError([a, b])).split('\n')).toEqual([
      `${a}: /Stop/0/hooks/0/command is required and must be a non-empty string`,
      expect.stringMatching(new RegExp(`^${b}: /hooks/Bogus is not a known event`)),
    ]);
  });

  it('reports invalid JSON with line and column but not the text of the file', async () => {
    const dir = hooksDir();
    const file = writeJson(dir, 'bad.json', '{\n  "Stop": [ s3cr3t ]\n}');
    const message = await loadError([file]);
    expect(message).toMatch(new RegExp(`^${file}: is not valid JSON: Unexpected token 's'`));
    expect(message).not.toContain('s3cr3t');
    const trailing = writeJson(dir, 'trailing.json', '{"Stop": [],\n}');
    expect(await loadError([trailing])).toBe(`${trailing}: is not valid JSON: Expected double-quoted property name (line 2, column 1)`);
  });

  it('reports a missing explicit file, and a directory given as a file', async () => {
    const dir = hooksDir();
    expect(await loadError([path.join(dir, 'nope.json')])).toBe(`${path.join(dir, 'nope.json')}: file not found`);
    expect(await loadError([dir])).toBe(`${dir}: is a directory, not a JSON file`);
  });
});

describe('hook configuration files', () => {
  it('merges the files in order, each entry remembering its file', async () => {
    const dir = hooksDir();
    const user = writeJson(dir, 'user.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'a' }] }] } });
    const project = writeJson(dir, 'project.json', { Stop: [{ hooks: [{ type: 'command', command: 'b' }] }], Notification: [{ hooks: [ok] }] });
    const loaded = await loadHooksConfig([
      { path: user, explicit: false },
      { path: project, explicit: false },
    ]);
    expect(loaded.files).toEqual([user, project]);
    expect(loaded.events.Stop.map((e) => [e.hooks[0]?.command, e.source])).toEqual([
      ['a', user],
      ['b', project],
    ]);
    expect(loaded.events.Notification).toHaveLength(1);
  });

  it('skips default files that do not exist', async () => {
    const dir = hooksDir();
    const loaded = await loadHooksConfig(defaultHookFiles({ HOME: dir }, dir));
    expect(loaded.files).toEqual([]);
  });

  it('finds the user file under HOME or ORGCTL_HOOKS_USER, and the project file under the project directory', () => {
    const home = hooksDir();
    const project = hooksDir();
    expect(defaultHookFiles({ HOME: home }, project).map((f) => f.path)).toEqual([
      path.join(home, '.orgctl/hooks.json'),
      path.join(project, '.orgctl/hooks.json'),
    ]);
    expect(defaultHookFiles({ HOME: home, ORGCTL_HOOKS_USER: '/etc/my-hooks.json' }, project)[0]?.path).toBe('/etc/my-hooks.json');
  });

  it('reads the home directory file once when the project is the home directory', async () => {
    const home = hooksDir();
    mkdirSync(path.join(home, '.orgctl'));
    writeJson(home, '.orgctl/hooks.json', { Stop: [{ hooks: [ok] }] });
    const loaded = await loadHooksConfig(defaultHookFiles({ HOME: home }, home));
    expect(loaded.events.Stop).toHaveLength(1);
  });
});

describe('hook configuration validation, property-based', () => {
  const command = fc.record(
    {
      type: fc.constant('command'),
      command: fc.string({ minLength: 1 }),
      timeout: fc.option(fc.double({ min: 0.001, max: 86400, noNaN: true }), { nil: undefined }),
    },
    { requiredKeys: ['type', 'command'] },
  );
  const matcher = fc.option(fc.constantFrom('', '*', 'Edit', 'Edit|Write', 'mcp__.*', 'Notebook.*'), { nil: undefined });
  const entry = fc.record({ matcher, hooks: fc.array(command, { maxLength: 3 }) }, { requiredKeys: ['hooks'] });
  const eventMap = fc.dictionary(fc.constantFrom(...hookEvents), fc.array(entry, { maxLength: 3 }));
  const document = fc.oneof(
    eventMap,
    eventMap.map((hooks) => ({ hooks })),
  );

  it('accepts every well-formed document in either layout', () => {
    fc.assert(fc.property(document, (doc) => validateHooksDocument(doc, 'f').issues.length === 0));
  });

  /** A well-formed map with one hook spoilt in one way; the issue must point exactly at the spoilt value. */
  const spoil = fc.constantFrom(
    { field: 'timeout', value: -1 },
    { field: 'timeout', value: 'soon' },
    { field: 'type', value: 'prompt' },
    { field: 'command', value: 42 },
    { field: 'command', value: undefined },
  );

  it('names the exact path of a single bad value anywhere in a document', () => {
    fc.assert(
      fc.property(eventMap, fc.constantFrom(...hookEvents), fc.nat(), fc.nat(), spoil, fc.boolean(), (map, event, i, j, bad, nested) => {
        const entries = [...(map[event] ?? [])];
        if (entries.length === 0) entries.push({ hooks: [] });
        const e = i % entries.length;
        const target = entries[e]!;
        const hooks = [...target.hooks];
        if (hooks.length === 0) hooks.push({ type: 'command', command: 'x' });
        const h = j % hooks.length;
        const spoilt: Record<string, unknown> = { ...hooks[h] };
        if (bad.value === undefined) delete spoilt[bad.field];
        else spoilt[bad.field] = bad.value;
        hooks[h] = spoilt as (typeof hooks)[number];
        entries[e] = { ...target, hooks };
        const doc = nested ? { hooks: { ...map, [event]: entries } } : { ...map, [event]: entries };
        const issues = validateHooksDocument(doc, 'f').issues;
        return issues.length === 1 && issues[0]!.path === `${nested ? '/hooks' : ''}/${event}/${e}/hooks/${h}/${bad.field}`;
      }),
    );
  });
});
