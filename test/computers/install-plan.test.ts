import { describe, expect, it } from 'vitest';
import { deriveStatus, planSteps } from '../../src/computers/step-machine.js';
import { failureMessage, installPlan, repoDirectoryNames } from '../../src/computers/install-plan.js';

const commands = (files: string[]) => installPlan(files).map((c) => c.command);

describe('what install detects', () => {
  it.each([
    [['package.json', 'package-lock.json'], ['npm ci']],
    [['package.json', 'pnpm-lock.yaml', 'package-lock.json'], ['pnpm install --frozen-lockfile']],
    [['package.json', 'yarn.lock'], ['yarn install --frozen-lockfile']],
    [['package.json', 'yarn.lock', '.yarnrc.yml'], ['yarn install --immutable']],
    [['package.json', 'bun.lockb'], ['bun install --frozen-lockfile']],
    [['package.json'], ['npm install']],
    [['pyproject.toml', 'uv.lock'], ['uv sync --frozen']],
    [['pyproject.toml', 'poetry.lock'], ['poetry install --no-root --no-interaction']],
    [['requirements.txt'], ['python3 -m venv .venv && .venv/bin/pip install -r requirements.txt']],
    [['go.mod', 'go.sum'], ['go mod download']],
    [['Cargo.toml', 'Cargo.lock'], ['cargo fetch']],
    [['Gemfile', 'Gemfile.lock'], ['bundle install']],
    [
      ['go.mod', 'web', 'package.json', 'package-lock.json'],
      ['npm ci', 'go mod download'],
    ],
    [['README.md', 'src'], []],
  ])('%j → %j', (files, expected) => {
    expect(commands(files)).toEqual(expected);
  });
});

describe('repository directories', () => {
  it('uses the last path segment without .git, made unique', () => {
    expect(repoDirectoryNames(['https://github.com/acme/api.git', 'file:///srv/x/api', 'ssh://git@h/a/web/', 'https://h/.hidden.git'])).toEqual([
      'api',
      'api-2',
      'web',
      'hidden',
    ]);
  });
});

describe('failure messages and derived status', () => {
  it('names the command, the exit code and the last stderr lines', () => {
    const stderr = Array.from({ length: 15 }, (_, i) => `err ${i}`).join('\n');
    const m = failureMessage('`npm ci` in /w/app', 1, stderr);
    expect(m.startsWith('`npm ci` in /w/app exited with code 1:\nerr 5\n')).toBe(true);
    expect(m.endsWith('err 14')).toBe(true);
    expect(failureMessage('git clone x', null, '', 'SIGTERM')).toBe('git clone x was stopped by SIGTERM');
  });

  it('error wins over provisioning, provisioning over active', () => {
    expect(deriveStatus(['succeeded', 'failed', 'pending'])).toBe('error');
    expect(deriveStatus(['succeeded', 'running', 'skipped'])).toBe('provisioning');
    expect(deriveStatus(['succeeded', 'skipped'])).toBe('active');
  });

  it('plans skipped steps from the create body', () => {
    expect(planSteps('e2b', { repos: 0, autoInstallDeps: false }).map((s) => `${s.stepId}:${s.status}`)).toEqual([
      'create-sandbox:pending',
      'configure-user:pending',
      'clone-repos:skipped',
      'install-dependencies:skipped',
    ]);
  });
});
