import type { TestProject } from 'vitest/node';
import { pgliteTemplate, postgresTemplate } from './db-template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite dump every test file loads (on PGlite; '' on PostgreSQL). */
    pgliteTemplate: string;
    /** The migrated database every test file's PostgreSQL database is created from (on PostgreSQL; '' on PGlite). */
    postgresTemplate: string;
    /** Set where files share modules (the `fast` project): a database given back is kept for the next file. */
    keepPgliteDatabases?: boolean;
  }
}

/**
 * Every test file starts its own database from one migrated template (db-template.ts), built
 * by the first run after the migrations change and reused by the runs after it.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  project.provide('pgliteTemplate', url ? '' : await pgliteTemplate());
  project.provide('postgresTemplate', url ? await postgresTemplate(url) : '');
}
