/**
 * Cleanups to run when the current test file ends. A helper module must not call `afterAll` or
 * `afterEach` when it is imported: the `fast` project shares imported modules between the files
 * of a worker (isolate: false), so only the first file importing the helper would get its hook.
 * It registers here instead, and the setup file (setup-db.ts) runs these after every file.
 */
const cleanups: (() => void | Promise<void>)[] = [];

/** Runs `fn` when the current test file's tests are done (last in, first out). */
export function afterFile(fn: () => void | Promise<void>): void {
  cleanups.push(fn);
}

/** The setup file's afterAll: runs and forgets this file's cleanups. */
export async function runAfterFile(): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c();
}
