// Writes the hooks runner's precompiled ajv validators (src/hooks/generated/validators.js and its
// .d.ts) from the built schemas; run through `npm run hooks:validators`, which builds first.
// With --check, only says whether the committed files are current (exit 1 when stale); the test
// test/hooks/generated-validators.test.ts makes the same comparison from the sources.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hooksValidatorsSource } from '../dist/hooks/compile-validators.js';

const dir = new URL('../src/hooks/generated/', import.meta.url);
const { js, dts } = hooksValidatorsSource();
const files = [
  [new URL('validators.js', dir), js],
  [new URL('validators.d.ts', dir), dts],
];

if (process.argv.includes('--check')) {
  const stale = files.filter(([file, text]) => readFileSync(file, { encoding: 'utf8', flag: 'r' }) !== text);
  for (const [file] of stale) process.stderr.write(`${file.pathname} is stale: run \`npm run hooks:validators\`.\n`);
  if (stale.length > 0) process.exit(1);
} else {
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of files) writeFileSync(file, text);
}
