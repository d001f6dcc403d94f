import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
