import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/http/errors.js';
import { branchName } from '../../src/automations/service.js';
import { checkBranchName, checkWorkflowContent, checkWorkflowPath } from '../../src/automations/workflow-request.js';

const accepts = (fn: () => void) => {
  try {
    fn();
    return true;
  } catch (e) {
    if (e instanceof AppError && e.status === 400) return false;
    throw e;
  }
};

describe('workflow path rule (property)', () => {
  it('accepts exactly the files directly in .github/workflows/ with a safe name ending .yml or .yaml', () => {
    const piece = fc.stringMatching(/^[A-Za-z0-9._/ -]{0,12}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('', '.github/workflows/', '.github/', 'x/.github/workflows/', '/.github/workflows/'),
        piece,
        fc.constantFrom('.yml', '.yaml', '.json', '', '.yml/'),
        (prefix, name, ext) => {
          const path = `${prefix}${name}${ext}`;
          const expected = /^\.github\/workflows\/[A-Za-z0-9_][A-Za-z0-9._-]*\.ya?ml$/.test(path);
          expect(accepts(() => checkWorkflowPath(path))).toBe(expected);
          if (expected) expect(path.split('/')).not.toContain('..');
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('branch names', () => {
  it('are readable, unique and valid for git', () => {
    const names = new Set(Array.from({ length: 200 }, () => branchName('edit', '.github/workflows/Build & Test.yml')));
    expect(names.size).toBe(200);
    for (const n of names) {
      expect(n).toMatch(/^ci\/edit-build-test-[0-9a-f]{8}$/);
      expect(accepts(() => checkBranchName(n, 'branch'))).toBe(true);
    }
    expect(branchName('create', '.github/workflows/---.yaml')).toMatch(/^ci\/create-workflow-[0-9a-f]{8}$/);
    expect(branchName('delete', `.github/workflows/${'x'.repeat(80)}.yml`)).toMatch(/^ci\/delete-x{40}-[0-9a-f]{8}$/);
  });

  it.each(['main', 'release/v1.2', 'feature_x+y', 'a-b'])('accepts the base branch %s', (b) =>
    expect(accepts(() => checkBranchName(b, 'baseBranch'))).toBe(true),
  );
  it.each(['', '-x', '.x', '/x', 'x/', 'x.', 'a..b', 'a//b', 'a.lock', 'a/.b', 'a b', 'a~1', 'a^', 'a:b', 'a@{1}', 'a\\b'])('refuses the base branch %j', (b) =>
    expect(accepts(() => checkBranchName(b, 'baseBranch'))).toBe(false),
  );
});

describe('workflow content', () => {
  it('takes `on` as the plain key of YAML 1.2, in block, flow and quoted forms', () => {
    for (const content of [
      'on: push\njobs: {a: {runs-on: x}}\n',
      '{"on": ["push"], "jobs": {"a": {}}}',
      "'on':\n  push:\n    branches: [main]\njobs:\n  a:\n    steps: []\n",
    ]) {
      expect(accepts(() => checkWorkflowContent(content))).toBe(true);
    }
  });

  it('refuses a YAML 1.1 document whose on became the boolean true only when the key is not written on', () => {
    expect(accepts(() => checkWorkflowContent('%YAML 1.1\n---\non: push\njobs:\n  a: {}\n'))).toBe(true);
    expect(accepts(() => checkWorkflowContent('true: push\njobs:\n  a: {}\n'))).toBe(false);
  });
});
