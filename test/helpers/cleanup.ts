import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The one way a test or a helper says what to undo: `onCleanup(fn)`. Called while a test runs
 * (in the test, or in a `beforeEach`), `fn` runs when that test ends; called anywhere else (in a
 * `beforeAll`, or at a file's top level), when the test file ends. Either way last in, first out,
 * after the file's own `afterEach` and `afterAll` hooks, and every cleanup runs even when one
 * before it failed. The setup file (setup-file.ts) opens and closes the scopes for every file,
 * so a helper needs no hook of its own: a hook registered at import would be the first
 * importing file's only where files share modules (the in-process lanes, `isolate: false`).
 */
type Cleanup = () => unknown;

const fileScope: Cleanup[] = [];
let testScope: Cleanup[] | undefined;

export function onCleanup(fn: Cleanup): void {
  (testScope ?? fileScope).push(fn);
}

/** setup-file.ts: a test begins. */
export function beginTest(): void {
  testScope = [];
}

/** setup-file.ts: the current test's cleanups, once it and its `afterEach` hooks are done. */
export async function endTest(): Promise<void> {
  const scope = testScope ?? [];
  testScope = undefined;
  await runAll(scope);
}

/** setup-file.ts: the file's cleanups, once its tests and `afterAll` hooks are done. */
export function endFile(): Promise<void> {
  return runAll(fileScope);
}

async function runAll(scope: Cleanup[]): Promise<void> {
  const failures: unknown[] = [];
  for (const c of scope.splice(0).reverse()) {
    try {
      await c();
    } catch (e) {
      failures.push(e);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} cleanups failed`);
}

/** A new temporary directory, removed at cleanup (see `onCleanup`). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
