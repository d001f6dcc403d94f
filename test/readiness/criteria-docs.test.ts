import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CRITERIA } from '../../src/readiness/criteria.js';
import { criteriaTable, withCriteriaTable } from '../../src/readiness/criteria-table.js';

describe('docs/readiness.md', () => {
  it('lists every criterion exactly as the catalogue has it (run `npm run docs` after changing it)', () => {
    const page = readFileSync(new URL('../../docs/readiness.md', import.meta.url), 'utf8');
    expect(withCriteriaTable(page)).toBe(page);
    for (const c of CRITERIA) expect(criteriaTable()).toContain(`| \`${c.id}\` | ${c.level} | ${c.scope} |`);
  });
});
