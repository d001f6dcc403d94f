import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const out = mkdtempSync(path.join(tmpdir(), 'orgctl-assets-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the build copies the migrations beside the compiled code', () => {
  it('replaces the folder of an older build, so a migration renamed in src does not stay behind', () => {
    const migrations = path.join(out, 'core/db/migrations');
    mkdirSync(migrations, { recursive: true });
    writeFileSync(path.join(migrations, '0011_renamed_since.sql'), 'SELECT 1;');
    execFileSync(process.execPath, ['scripts/copy-assets.mjs', out]);
    expect(existsSync(path.join(migrations, '0011_renamed_since.sql'))).toBe(false);
    expect(readdirSync(migrations).sort()).toEqual(readdirSync('src/core/db/migrations').sort());
  });
});

describe('npm start and npm test build only when the sources changed', () => {
  const check = () => {
    try {
      execFileSync(process.execPath, ['scripts/build-if-stale.mjs', '--check'], { stdio: 'pipe' });
      return { code: 0, stderr: '' };
    } catch (e) {
      const err = e as { status: number; stderr: Buffer };
      return { code: err.status, stderr: err.stderr.toString() };
    }
  };

  it('finds the build current after a build, and stale, naming the file, once a source is newer', () => {
    // The suite's own pretest built dist/ from these sources.
    expect(check()).toEqual({ code: 0, stderr: '' });
    const file = 'src/main.ts';
    const before = statSync(file);
    try {
      const later = new Date(Date.now() + 60_000);
      utimesSync(file, later, later);
      expect(check()).toEqual({ code: 1, stderr: `stale: ${file} changed since the last build\n` });
    } finally {
      utimesSync(file, before.atime, before.mtime);
    }
    expect(check().code).toBe(0);
  });
});
