import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean; dev?: boolean }>;
};
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };

describe('the locked dependencies', () => {
  it('all run on the oldest Node the package promises, so a fresh npm ci prints no EBADENGINE warning', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    const refused = Object.entries(lock.packages)
      // npm leaves out, without a warning, an optional package whose engines do not fit (e2b's undici8).
      .filter(([name, p]) => name !== '' && !p.optional && !Array.isArray(p.engines) && p.engines?.node !== undefined)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node, { includePrerelease: true }))
      .map(([name, p]) => `${name.replace(/^.*node_modules\//, '')}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });
});
