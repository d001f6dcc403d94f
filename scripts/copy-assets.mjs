// tsc compiles the TypeScript; the SQL migrations and the hooks runner's precompiled validators
// (src/hooks/generated/validators.js: JavaScript with a .d.ts, so tsc reads its types and emits
// nothing for it) travel beside the compiled code.
// Usage: node scripts/copy-assets.mjs [OUT_DIR_OF_src]   (default: dist)
// The folder is replaced, not merged: migrations are found by listing it, so a file renamed or
// removed in src must not stay behind in an older build.
import { cpSync, rmSync } from 'node:fs';

const out = process.argv[2] ?? 'dist';
rmSync(`${out}/core/db/migrations`, { recursive: true, force: true });
cpSync('src/core/db/migrations', `${out}/core/db/migrations`, { recursive: true });
cpSync('src/hooks/generated/validators.js', `${out}/hooks/generated/validators.js`);
