import AjvModule, { type ErrorObject as AjvError } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorItem } from './errors.js';

// ajv and ajv-formats are CommonJS modules whose default export arrives wrapped under NodeNext.
const Ajv = AjvModule as unknown as typeof AjvModule.default;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

function makeAjv(coerceTypes: boolean) {
  // removeAdditional stays off: an unknown property is an error, never silently dropped.
  const ajv = new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, coerceTypes, strict: false });
  addFormats(ajv);
  return ajv;
}

/**
 * Fastify asks this factory for a validator compiler for every encapsulation context, also when
 * a plugin adds a shared schema later (`addSchema`), so every route validates with our rules:
 * bodies are JSON and keep their types (the string "1000000" is not an integer); query strings
 * and path parameters are text, so they are converted to the declared type.
 */
export function buildValidator(externalSchemas: Record<string, unknown> = {}): FastifySchemaCompiler<unknown> {
  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv(true);
  for (const schema of Object.values(externalSchemas)) {
    bodyAjv.addSchema(schema as object);
    textAjv.addSchema(schema as object);
  }
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
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
    const merged = messages.map((m, i) => (i === 0 ? m : m.replace(/^must be /, ''))).join(' or ');
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
