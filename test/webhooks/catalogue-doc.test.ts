import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsonAjv } from '../../src/core/validation/ajv.js';
import { CATALOGUE, EVENT_TYPES } from '../../src/webhooks/catalogue.js';
import { withCatalogue } from '../../src/webhooks/catalogue-doc.js';

describe('the webhook event catalogue', () => {
  it('docs/webhooks.md holds the catalogue as the schemas make it (npm run docs writes it)', () => {
    const page = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    expect(withCatalogue(page)).toBe(page);
    for (const type of EVENT_TYPES) expect(page).toContain(`### \`${type}\``);
  });

  it('every example is valid data of its type', () => {
    for (const type of EVENT_TYPES) expect(jsonAjv.compile(CATALOGUE[type].data)(CATALOGUE[type].example), type).toBe(true);
  });
});
