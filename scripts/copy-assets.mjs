// tsc compiles the TypeScript; the SQL migrations travel beside the compiled code.
// Usage: node scripts/copy-assets.mjs [OUT_DIR_OF_src]   (default: dist)
import { cpSync } from 'node:fs';

const out = process.argv[2] ?? 'dist';
cpSync('src/core/db/migrations', `${out}/core/db/migrations`, { recursive: true });
