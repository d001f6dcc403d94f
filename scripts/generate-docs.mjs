// Writes the generated parts of the docs from the built code: the readiness criteria table.
import { readFileSync, writeFileSync } from 'node:fs';
import { withCriteriaTable } from '../dist/readiness/criteria-table.js';

const page = new URL('../docs/readiness.md', import.meta.url);
writeFileSync(page, withCriteriaTable(readFileSync(page, 'utf8')));
