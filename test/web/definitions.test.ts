import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFINITIONS } from '../../web/src/analytics/definitions.js';

// Lines of a paragraph are joined: a definition may span two lines of the doc.
const doc = readFileSync(new URL('../../docs/analytics.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe("the analytics pages' metric definitions", () => {
  it.each(Object.entries(DEFINITIONS))('%s is word for word in docs/analytics.md', (_metric, text) => {
    expect(doc).toContain(text);
  });
});
