import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The compiled script of a worker thread beside the module at `moduleUrl`. Run from the
 * TypeScript sources (the tests under Vitest), a thread cannot load TypeScript, so it takes the
 * build's copy under dist/: `npm test` builds first.
 */
export function builtWorkerUrl(script: string, moduleUrl: string): URL {
  const here = new URL(script, moduleUrl);
  if (!moduleUrl.endsWith('.ts')) return here;
  const built = new URL(here.href.replace(/\/src\/(?!.*\/src\/)/, '/dist/'));
  if (!existsSync(fileURLToPath(built))) throw new Error(`${fileURLToPath(built)} is missing: run \`npm run build\` before the tests`);
  return built;
}
