import AjvModule, { type ErrorObject as AjvError, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv and ajv-formats are CommonJS modules whose default export arrives wrapped under NodeNext.
const Ajv = AjvModule as unknown as typeof AjvModule.default;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** One problem of a value: the JSON pointer of the field ('' for the value itself) and what is wrong. */
export interface ErrorItem {
  path: string;
  message: string;
}

/**
 * The options of the project's ajv, in JSON mode. removeAdditional stays off: an unknown property
 * is an error, never silently dropped. discriminator: a union tagged by a property (the events, on
 * `type`) checks only its own branch. Exported for the hooks runner's precompiled validators
 * (scripts/compile-hooks-validators.mjs), which must check exactly as this ajv does.
 */
export const jsonAjvOptions = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  coerceTypes: false,
  strict: false,
  discriminator: true,
} as const satisfies Options;

/** An ajv of the project's configuration, with the formats; `extra` only adds options (the standalone code's). */
export function makeAjv(coerceTypes: boolean, extra: Options = {}) {
  const ajv = new Ajv({ ...jsonAjvOptions, coerceTypes, ...extra });
  addFormats(ajv);
  return ajv;
}

/**
 * The one validator of the project, in its two modes. JSON (request bodies, events, the hooks
 * file) keeps its types: the string "1000000" is not an integer. Text (query strings, path
 * parameters, environment variables) is converted to the declared type first. Coercion is a
 * setting of the whole ajv instance, hence two instances of the same configuration.
 * ajv caches what it compiled by schema, so compiling a module's schema again costs nothing.
 * This module imports no server code: the hooks runner uses it too.
 */
export const jsonAjv = makeAjv(false);
export const textAjv = makeAjv(true);

/**
 * A schema's validator compiled on its first use, for a module-level validator: compiling costs
 * milliseconds per schema, and most processes that load a module (a CLI command, a server that
 * is never sent that request) never check its values.
 */
export function compiledOnUse(ajv: typeof jsonAjv, schema: object): () => ValidateFunction {
  let compiled: ValidateFunction | undefined;
  return () => (compiled ??= ajv.compile(schema));
}

/** The problems of a value a compiled validator refused (none when it passed). */
export function problemsOf(validate: ValidateFunction, value: unknown): ErrorItem[] {
  return validate(value) ? [] : toErrorItems(validate.errors ?? []);
}

/** Turns ajv's errors into the `{path, message}` items of the error object, one per problem. */
export function toErrorItems(errs: readonly AjvError[]): ErrorItem[] {
  const anyOfPaths = new Set(errs.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const items: ErrorItem[] = [];
  const alternatives = new Map<string, string[]>();
  for (const e of errs) {
    let path = e.instancePath;
    if (e.keyword === 'required') path = `${path}/${(e.params as { missingProperty: string }).missingProperty}`;
    if (e.keyword === 'additionalProperties') {
      items.push({ path: `${path}/${(e.params as { additionalProperty: string }).additionalProperty}`, message: 'is not an allowed property' });
      continue;
    }
    if (e.keyword === 'discriminator') {
      const { tag, error } = e.params as { tag: string; error: 'tag' | 'mapping' };
      items.push({ path: `${path}/${tag}`, message: error === 'tag' ? 'must be a string' : 'is not a known value' });
      continue;
    }
    // A union (anyOf) reports one error per branch; they are merged into one readable line.
    if (anyOfPaths.has(e.instancePath) && e.keyword !== 'anyOf' && e.keyword !== 'required') {
      const list = alternatives.get(path) ?? [];
      list.push(messageOf(e));
      alternatives.set(path, list);
      continue;
    }
    if (e.keyword === 'anyOf') continue;
    items.push({ path, message: e.keyword === 'required' ? 'is required' : messageOf(e) });
  }
  for (const [path, messages] of alternatives) {
    const parts = messages.map((m, i) => (i === 0 ? m : m.replace(/^must be /, '')));
    // "must be "a", "b" or "c"", as a sentence names three or more.
    const merged = parts.length > 2 ? `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}` : parts.join(' or ');
    items.push({ path, message: merged });
  }
  return dedupe(items);
}

/** ajv's message, but a fixed value or a list of them is named: "must be \"user\"", not "must be equal to constant". */
function messageOf(e: AjvError): string {
  if (e.keyword === 'const') return `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
  if (e.keyword === 'enum') return `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return e.message ?? 'is invalid';
}

function dedupe(items: ErrorItem[]): ErrorItem[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const k = `${i.path}\u0000${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
