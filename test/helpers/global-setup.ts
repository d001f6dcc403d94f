import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/core/db/migrate.js';
import { PgliteDb } from '../../src/core/db/pglite-engine.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/**
 * On PGlite, every test file starts its own database from one migrated template, made once
 * per run: loading a dump takes about a second, a cold start with migrations four.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'orgctl-test-'));
  const file = path.join(dir, 'pglite-template.tar');
  if (!process.env.DATABASE_URL) {
    const db = await PgliteDb.open({ dataDir: 'memory://' });
    await migrate(db);
    writeFileSync(file, await db.dump());
    await db.close();
  }
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
