// tsc compiles the TypeScript; the SQL migrations travel beside the compiled code.
import { cpSync } from 'node:fs';

cpSync('src/core/db/migrations', 'dist/core/db/migrations', { recursive: true });
