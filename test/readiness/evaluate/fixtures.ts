import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateRepository, type EvaluateOptions, type Evaluation } from '../../../src/readiness/evaluate/evaluate.js';
import type { MachineProbe } from '../../../src/readiness/evaluate/probe.js';
import { tempDir } from '../../helpers/cleanup.js';

export type Files = Record<string, string>;

/** A machine without gh, glab or the devcontainer CLI. */
export const BARE_MACHINE: MachineProbe = {
  vcsCli: async () => [
    { tool: 'gh', installed: false, authenticated: false },
    { tool: 'glab', installed: false, authenticated: false },
  ],
  devcontainerCli: async () => false,
};

export const gitIn = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    stdio: 'pipe',
    encoding: 'utf8',
  });

export function writeFiles(dir: string, files: Files): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

/** A real git repository in a temp dir with `files` in one commit (dated `date` when given). */
export function makeRepo(files: Files, opts: { date?: string; message?: string; origin?: string } = {}): string {
  const dir = tempDir('orgctl-evaluate-');
  writeFiles(dir, files);
  gitIn(dir, 'init', '-q');
  gitIn(dir, 'remote', 'add', 'origin', opts.origin ?? 'https://github.com/acme/app.git');
  gitIn(dir, 'add', '-A');
  const env = opts.date ? { ...process.env, GIT_AUTHOR_DATE: opts.date, GIT_COMMITTER_DATE: opts.date } : process.env;
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-q', '--allow-empty', '-m', opts.message ?? 'initial'], {
    cwd: dir,
    env,
    stdio: 'pipe',
  });
  return dir;
}

/** A commit on top of the repository's history. */
export function commit(dir: string, files: Files, opts: { date?: string; message?: string } = {}): void {
  writeFiles(dir, files);
  gitIn(dir, 'add', '-A');
  const env = opts.date ? { ...process.env, GIT_AUTHOR_DATE: opts.date, GIT_COMMITTER_DATE: opts.date } : process.env;
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-q', '--allow-empty', '-m', opts.message ?? 'change'], {
    cwd: dir,
    env,
    stdio: 'pipe',
  });
}

export const evaluate = (dir: string, o: Partial<EvaluateOptions> = {}): Promise<Evaluation> => evaluateRepository({ dir, probe: BARE_MACHINE, ...o });

/** The smallest application: a named Node package. */
export const NODE_APP: Files = { 'package.json': JSON.stringify({ name: 'app', version: '1.0.0' }) };
export const pkg = (extra: Record<string, unknown>): Files => ({ 'package.json': JSON.stringify({ name: 'app', version: '1.0.0', ...extra }, null, 2) });
export const deps = (...names: string[]): Files => pkg({ dependencies: Object.fromEntries(names.map((n) => [n, '1.0.0'])) });
export const workflow = (body: string): Files => ({
  '.github/workflows/ci.yml': `on: push\njobs:\n  ci:\n    runs-on: ubuntu-latest\n    steps:\n${body
    .split('\n')
    .map((l) => `      - run: ${l}`)
    .join('\n')}\n`,
});

export interface Case {
  id: string;
  /** A repository on which the criterion passes, and what its rationale must name. */
  pass: Files;
  passNames: RegExp;
  fail: Files;
  failNames?: RegExp;
  skip?: Files;
  skipNames?: RegExp;
  options?: Partial<EvaluateOptions>;
  date?: string;
}

/** For each case: passes on one fixture, fails on another, is skipped on a third; each rationale names its evidence. */
export function criterionCases(pillar: string, cases: Case[]): void {
  describe(pillar, () => {
    for (const c of cases) {
      describe(c.id, () => {
        it('passes and names the evidence', async () => {
          const r = (await evaluate(makeRepo(c.pass, { date: c.date }), c.options)).report.report[c.id]!;
          expect(r.rationale).toMatch(c.passNames);
          expect(r.numerator).toBe(r.denominator);
        });
        it('fails and says what was missing', async () => {
          const r = (await evaluate(makeRepo(c.fail, { date: c.date }), c.options)).report.report[c.id]!;
          if (c.failNames) expect(r.rationale).toMatch(c.failNames);
          expect(r.numerator).toBe(0);
        });
        if (c.skip) {
          it('is skipped where it does not apply', async () => {
            const r = (await evaluate(makeRepo(c.skip!, { date: c.date }), c.options)).report.report[c.id]!;
            if (c.skipNames) expect(r.rationale).toMatch(c.skipNames);
            expect(r.numerator).toBeNull();
            expect(r.rationale).toMatch(/^skipped: /);
          });
        }
      });
    }
  });
}
