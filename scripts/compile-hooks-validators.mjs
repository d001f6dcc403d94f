// Writes the hooks runner's precompiled ajv validators (src/hooks/generated/validators.js and its
// .d.ts) from the built schemas; run through `npm run hooks:validators`, which builds first.
// test/hooks/generated-validators.test.ts fails when the committed files differ from what this writes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { hooksValidatorsSource } from '../dist/hooks/compile-validators.js';

const dir = new URL('../src/hooks/generated/', import.meta.url);
const { js, dts } = hooksValidatorsSource();
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('validators.js', dir), js);
writeFileSync(new URL('validators.d.ts', dir), dts);
