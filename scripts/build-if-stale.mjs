// `npm start` and `npm test` build only when the sources changed since the last build, instead
// of spending ten silent seconds in tsc on every start. A successful build leaves a stamp in
// dist/ (the server's code and the web app's pages); any input newer than the stamp (or no stamp) means a build, and the user is told so.
// Usage: node scripts/build-if-stale.mjs            build when stale, saying why
//        node scripts/build-if-stale.mjs --check    exit 1 (saying why) when stale, 0 when current
//        node scripts/build-if-stale.mjs --stamp    record a build that just succeeded
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const STAMP = 'dist/.build-stamp';
const INPUTS = ['src', 'web', 'tsconfig.json', 'package.json', 'scripts/copy-assets.mjs'];

function newest(p) {
  if (!existsSync(p)) return { file: p, ms: 0 };
  const s = statSync(p);
  if (!s.isDirectory()) return { file: p, ms: s.mtimeMs };
  let best = { file: p, ms: 0 };
  for (const e of readdirSync(p)) {
    const n = newest(path.join(p, e));
    if (n.ms > best.ms) best = n;
  }
  return best;
}

function staleReason() {
  if (!existsSync(STAMP)) return 'no build yet';
  const built = statSync(STAMP).mtimeMs;
  const changed = INPUTS.map(newest).reduce((a, b) => (b.ms > a.ms ? b : a));
  return changed.ms > built ? `${changed.file} changed since the last build` : undefined;
}

const mode = process.argv[2];
if (mode === '--stamp') {
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
} else {
  const reason = staleReason();
  if (mode === '--check') {
    if (reason) process.stderr.write(`stale: ${reason}\n`);
    process.exit(reason ? 1 : 0);
  }
  if (reason) {
    process.stderr.write(`Building orgctl first (${reason}); this takes a few seconds...\n`);
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
    execFileSync(process.execPath, ['scripts/copy-assets.mjs'], { stdio: 'inherit' });
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
    writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  }
}
