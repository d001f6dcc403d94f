import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hooksValidatorsSource } from '../../src/hooks/compile-validators.js';
import { hookJsonOutputFields, validateHookEventMap } from '../../src/hooks/generated/validators.js';
import { HookJsonOutputSchema } from '../../src/hooks/schemas.js';

const generated = (name: string) => readFileSync(new URL(`../../src/hooks/generated/${name}`, import.meta.url), 'utf8');

describe("the hooks runner's precompiled validators", () => {
  it('are current: src/hooks/generated is what the schemas compile to (run `npm run hooks:validators`)', () => {
    const { js, dts } = hooksValidatorsSource();
    expect(generated('validators.js')).toBe(js);
    expect(generated('validators.d.ts')).toBe(dts);
  });

  it('are plain ES modules that load no ajv compiler and no TypeBox, only ajv runtime helpers', () => {
    const js = generated('validators.js');
    expect([...js.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1])).toEqual(['node:module']);
    expect([...new Set([...js.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]))]).toEqual(['ajv/dist/runtime/ucs2length']);
  });

  it('check one field of a hook output each, for every field of the schema', () => {
    expect(Object.keys(hookJsonOutputFields)).toEqual(Object.keys(HookJsonOutputSchema.properties));
    expect(hookJsonOutputFields.decision('block')).toBe(true);
    expect(hookJsonOutputFields.decision('allow')).toBe(false);
    expect(hookJsonOutputFields.continue('false')).toBe(false);
  });

  it('report errors as ajv does, with the failing schema (verbose)', () => {
    expect(validateHookEventMap({ Stop: [{ hooks: [{ type: 'command', command: '' }] }] })).toBe(false);
    expect(validateHookEventMap.errors).toMatchObject([
      { instancePath: '/Stop/0/hooks/0/command', keyword: 'minLength', parentSchema: { errorMessage: 'must be a non-empty string' } },
    ]);
  });
});
