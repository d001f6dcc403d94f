import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settings } from '../../src/config.js';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

describe('documentation moves with the code', () => {
  it('the README configuration table lists every setting', () => {
    const missing = Object.keys(settings).filter((name) => !readme.includes(`| \`${name}\` |`));
    expect(missing).toEqual([]);
  });

  it('every docs page the README links to exists', () => {
    const links = [...readme.matchAll(/\]\((docs\/[^)#]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((l) => !existsSync(new URL(l, root)))).toEqual([]);
  });
});
