import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFlags, type ApiCommand } from '../../src/cli/api/command.js';
import { apiCommands } from '../../src/cli/api/registry.js';
import { modelEntries } from '../../src/cli/command-list.js';
import { completionScript } from '../../src/cli/completion.js';
import { LOCAL } from '../../src/cli/local-specs.js';
import { completionEntries, type FlagSpec } from '../../src/cli/model.js';
import { runCli } from '../helpers/cli.js';

// One command model (src/cli/model.ts) makes `--help`, the command lists and shell completion.

const local = Object.values(LOCAL);
const model = modelEntries(local, apiCommands);
const cli = (args: string[]) => runCli(args, {});

/** The flags the bash script offers for a command, as the shell would read its case line. */
function bashFlags(script: string, name: string): string[] | undefined {
  const line = script.split('\n').find((l) => l.trimStart().startsWith(`"${name}") flags="`));
  return line === undefined ? undefined : /flags="([^"]*)"/.exec(line)![1]!.split(' ').filter(Boolean);
}

describe('completion comes from the model', () => {
  it('a command added to the model is completed, with its flags, without a change to the completion code', () => {
    const extra: ApiCommand = {
      name: 'widgets polish',
      summary: 'A command that exists only in this test.',
      flags: { shine: { type: 'boolean', description: 'How much' }, colour: { type: 'string', value: 'C', description: 'Which' } },
      run: async () => 0,
    };
    const script = completionScript('bash', completionEntries(modelEntries(local, [...apiCommands, extra])));
    expect(script).toMatch(/^ {4}widgets\) subs="polish" ;;$/m);
    expect(bashFlags(script, 'widgets polish')).toEqual(Object.keys(allFlags(extra)).map((f) => `--${f}`));
    expect(script).toMatch(/compgen -W "[^"]*\bwidgets\b/);
  });

  it('orgctl completion bash offers every command of the model with exactly its flags (no help text read back)', async () => {
    const bash = await cli(['completion', 'bash']);
    expect(bash.code).toBe(0);
    for (const e of model) {
      const expected = [...new Set([...Object.keys(e.flags), ...Object.keys(e.local?.flags ?? {})])].map((f) => `--${f}`);
      expect(bashFlags(bash.stdout, e.spec.name), e.spec.name).toEqual(expected);
    }
    // Flags the old scraping of help text missed: hooks run --client, and users list --local.
    expect(bashFlags(bash.stdout, 'hooks run')).toContain('--client');
    expect(bashFlags(bash.stdout, 'users list')).toEqual(expect.arrayContaining(['--local', '--org-id', '--output', '--url']));
    const zsh = await cli(['completion', 'zsh']);
    expect(zsh.stdout).toContain('"demo seed") flags=(--users --days --seed --org-id --json --help)');
  });
});

describe('the model and the commands that parse their own flags agree', () => {
  // The database commands parse their flags from the model; the hooks runner and the host agent
  // (client code, with exit codes of their own) parse theirs, so each must take every flag the model lists.
  it.each([LOCAL.hooksRun, LOCAL.hooksValidate, LOCAL.hooksList, LOCAL.agent])('$name takes every flag of its spec', async (spec) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'orgctl-model-'));
    const value = (name: string, f: FlagSpec) =>
      name === 'url' ? 'not-a-url' : name === 'cwd' || name === 'workdir' ? dir : (f.choices?.[0] ?? path.join(dir, 'x'));
    const args = Object.entries(spec.flags as Record<string, FlagSpec>).flatMap(([name, f]) =>
      f.type === 'boolean' ? [`--${name}`] : [`--${name}`, value(name, f)],
    );
    const positionals = ('positionals' in spec ? spec.positionals : []).map(() => 'Stop');
    const run = await cli([...spec.name.split(' '), ...positionals, ...args]);
    expect(run.stderr).not.toMatch(/Unknown option|Unexpected argument/);
  });
});

describe('help', () => {
  it('orgctl users --help lists the users commands on stdout, without "Unknown command"', async () => {
    for (const flag of ['--help', '-h']) {
      const help = await cli(['users', flag]);
      expect(help.stderr).toBe('');
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^orgctl users commands:$/m);
      for (const c of ['users add', 'users list', 'users link', 'users remove']) expect(help.stdout).toContain(`orgctl ${c} `);
    }
    const unknown = await cli(['users', 'frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown command: orgctl users frobnicate\n\norgctl users commands:/);
  });

  it('ci edit --help names the roles the service allows (owner, manager or member)', async () => {
    const help = await cli(['ci', 'edit', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('(owner, manager or member; not a guest)');
    expect(help.stdout).not.toContain('(owner or manager)');
  });

  it('a database command`s help is generated from its flags; a command that exists both ways shows both', async () => {
    const add = await cli(['users', 'add', '--help']);
    expect(add.stdout).toMatch(/^Usage: orgctl users add --email EMAIL --role ROLE \[flags\]$/m);
    expect(add.stdout).toMatch(/--role ROLE +The role \(owner\|manager\|member\|guest\); required/);
    const list = await cli(['users', 'list', '--help']);
    expect(list.stdout).toMatch(/--output FORMAT/);
    expect(list.stdout).toMatch(/With --local, on the machine of the service: orgctl users list \[flags\]\n.*\n {2}--org-id ID/);
  });
});
