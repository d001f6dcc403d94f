import { readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

/**
 * A test file that makes a database (`TestApp.start(`, `createTestDb(` in its source) has its
 * first one started here, before the file is imported: PGlite then loads the template in its
 * own thread while this one imports the app, instead of after (each takes about a second).
 * A file without either starts nothing, and imports nothing from here.
 */
const testPath = expect.getState().testPath;
if (testPath && /\b(TestApp\.start|createTestDb)\(/.test(readFileSync(testPath, 'utf8'))) {
  const { discardEarlyTestDb, startTestDbEarly } = await import('./test-db.js');
  startTestDbEarly();
  afterAll(discardEarlyTestDb);
}
