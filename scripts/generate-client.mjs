// Writes the types of the API client (src/client/openapi-types.ts) from the committed openapi.json;
// with --check, only says whether the committed types are current (exit 1 when stale).
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

const root = new URL('../', import.meta.url);
const target = new URL('src/client/openapi-types.ts', root);
const document = JSON.parse(readFileSync(new URL('openapi.json', root), 'utf8'));
const types = COMMENT_HEADER + astToString(await openapiTS(document));

if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== types) {
    process.stderr.write('src/client/openapi-types.ts is stale: run `npm run openapi`.\n');
    process.exit(1);
  }
} else {
  writeFileSync(target, types);
}
