import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { beginTest, endFile, endTest } from './cleanup.js';

// Vitest runs this file again before every test file, also where files share modules (isolate:
// false), so the hooks registered here are every file's own. Registered before the file's own
// hooks, they run before its `beforeEach` and after its `afterEach` and `afterAll` (cleanup.ts).
beforeEach(beginTest);
afterEach(endTest);
afterAll(endFile);

/**
 * A test file that makes a database (`TestApp.start(`, `createTestDb(` in its source) has its
 * first one started here, before the file is imported: PGlite then loads the template in its
 * own thread while this one imports the app, instead of after (each takes about a second).
 * A file without either starts nothing, and imports nothing else from here.
 */
const testPath = expect.getState().testPath;
if (testPath && /\b(TestApp\.start|createTestDb)\(/.test(readFileSync(testPath, 'utf8'))) {
  const { discardEarlyTestDb, startTestDbEarly } = await import('./test-db.js');
  startTestDbEarly();
  afterAll(discardEarlyTestDb);
}
