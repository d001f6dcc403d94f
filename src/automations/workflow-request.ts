import { isMap, isScalar, LineCounter, parseDocument, type Node } from 'yaml';
import { errors } from '../core/http/errors.js';

/**
 * Checks a workflow path: a file directly in `.github/workflows/` (GitHub reads no deeper),
 * named with letters, digits, `.`, `_` or `-`, ending in `.yml` or `.yaml`.
 */
export function checkWorkflowPath(path: string): void {
  const fail = (message: string) => errors.invalid([{ path: '/workflowPath', message }]);
  if (!path.startsWith('.github/workflows/')) throw fail('must be under .github/workflows/');
  const name = path.slice('.github/workflows/'.length);
  if (name.split('/').some((s) => s === '..' || s === '.')) throw fail('must not contain . or .. segments');
  if (name.includes('/')) throw fail('must name a file directly in .github/workflows/ (GitHub does not read subdirectories)');
  if (!/\.ya?ml$/.test(name)) throw fail('must end in .yml or .yaml');
  if (!/^[A-Za-z0-9_][A-Za-z0-9._-]*\.ya?ml$/.test(name)) throw fail('file name may hold only letters, digits, ".", "_" and "-"');
}

/** A branch name git and every host accept (a subset of git check-ref-format). */
export function checkBranchName(branch: string, field: string): void {
  const ok = /^[A-Za-z0-9._/+-]{1,200}$/.test(branch) && !/(^[-/.])|(\/\.)|(\.\.)|(\/\/)|([/.]$)|(\.lock$)|(\.lock\/)/.test(branch);
  if (!ok)
    throw errors.invalid([{ path: `/${field}`, message: 'must be a valid Git branch name (letters, digits, . _ / + -; no .., //, leading - or trailing /)' }]);
}

/**
 * Parses the workflow as YAML 1.2 (where `on` is a plain key, not the boolean it is in YAML 1.1)
 * and requires a mapping with `on` and a non-empty `jobs` mapping. Errors carry line and column.
 */
export function checkWorkflowContent(content: string): void {
  const lines = new LineCounter();
  const doc = parseDocument(content, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const fail = (message: string, offset: number | undefined) => {
    const { line, col } = offset === undefined ? { line: 1, col: 1 } : lines.linePos(offset);
    return errors.badRequest(`body/content is not a valid workflow: ${message} (line ${line}, column ${col})`, {
      errors: [{ path: '/content', message: `${message} (line ${line}, column ${col})` }],
      line,
      column: col,
    });
  };
  const first = doc.errors[0];
  if (first) throw fail(first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), first.pos[0]);
  const root = doc.contents;
  if (!isMap(root)) throw fail('the workflow must be a YAML mapping with the keys on and jobs', (root as Node | null)?.range?.[0]);
  const keyText = (k: unknown) => (isScalar(k) ? String((k as { source?: string }).source ?? k.value) : undefined);
  const pairOf = (name: string) => root.items.find((p) => keyText(p.key) === name);
  if (!pairOf('on')) throw fail('the workflow has no "on" key (what triggers it)', root.range?.[0]);
  const jobs = pairOf('jobs');
  if (!jobs) throw fail('the workflow has no "jobs" key', root.range?.[0]);
  if (!isMap(jobs.value) || jobs.value.items.length === 0) {
    throw fail('"jobs" must be a mapping with at least one job', (jobs.value as Node | null)?.range?.[0] ?? (jobs.key as Node).range?.[0]);
  }
  try {
    doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw fail((e as Error).message, undefined);
  }
}
