import type { TestProject } from 'vitest/node';
import { installationTemplate, pgliteTemplate, postgresTemplate } from './db-template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite dump every in-process test file's database loads. */
    pgliteTemplate: string;
    /** A migrated data directory (DATA_DIR/pgdata) every orgctl installation of the process tests is a copy of. */
    installationTemplate: string;
    /** The migrated database every PostgreSQL test database is created from ('' when the run has no PostgreSQL server). */
    postgresTemplate: string;
    /** The lane of vitest.config.ts the file runs in. */
    lane: string;
    /** Set where files share modules (the in-process lanes): a database given back is kept for the next file. */
    keepPgliteDatabases: boolean;
  }
}

/**
 * Every test database and installation starts from a migrated template (db-template.ts), built
 * by the first run after the migrations change and reused by the runs after it. Vitest runs this
 * for the root project and again for each lane; what it provides here, the lanes inherit.
 */
export default async function setup(project: TestProject) {
  if (!project.isRootProject()) return;
  const url = process.env.DATABASE_URL;
  const [dump, installation, postgres] = await Promise.all([pgliteTemplate(), installationTemplate(), url ? postgresTemplate(url) : '']);
  project.provide('pgliteTemplate', dump);
  project.provide('installationTemplate', installation);
  project.provide('postgresTemplate', postgres);
}
