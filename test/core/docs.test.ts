import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settings } from '../../src/config.js';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

describe('documentation moves with the code', () => {
  it('the README configuration table lists every setting', () => {
    const missing = Object.keys(settings).filter((name) => !readme.includes(`| \`${name}\` |`));
    expect(missing).toEqual([]);
  });

  it('the README, docs/ and openapi.json stand alone: they cite no document a user does not have', () => {
    const pages = [
      'README.md',
      'openapi.json',
      ...readdirSync(new URL('docs/', root))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const outside = /api-spec(\.md)?|contract(\.md)? ?§|\bcontract\.md|§ ?\d|the issue note|readiness-criteria\.md|\.\.\/shared\//i;
    const cited = pages.flatMap((p) =>
      readFileSync(new URL(p, root), 'utf8')
        .split('\n')
        .flatMap((line, i) => (outside.test(line) ? [`${p}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
    expect(cited).toEqual([]);
  });

  it('every docs page the README links to exists', () => {
    const links = [...readme.matchAll(/\]\((docs\/[^)#]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((l) => !existsSync(new URL(l, root)))).toEqual([]);
  });
});
