import type { ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { compiledOnUse, jsonAjv, textAjv } from '../validation/ajv.js';

/**
 * Fastify asks this factory for a validator compiler for every encapsulation context, also when
 * a plugin adds a shared schema later (`addSchema`), so every route validates with the project's
 * one ajv (core/validation/ajv.ts): bodies are JSON and keep their types; query strings and path
 * parameters are text, so they are converted to the declared type.
 */
export function buildValidator(externalSchemas: Record<string, unknown> = {}): FastifySchemaCompiler<unknown> {
  for (const schema of Object.values(externalSchemas)) {
    const id = (schema as { $id?: string }).$id;
    // The instances outlive one app (tests build many): a shared schema is added once.
    for (const ajv of [jsonAjv, textAjv]) if (id === undefined || ajv.getSchema(id) === undefined) ajv.addSchema(schema as object);
  }
  // Each route's schema is compiled on its first request, not at start (several hundred routes,
  // most of which a server, or a test's, never answers).
  return ({ schema, httpPart }) => {
    const check = compiledOnUse(httpPart === 'body' ? jsonAjv : textAjv, schema as object);
    const validate = (data: unknown) => {
      const compiled = check();
      const valid = compiled(data);
      // Fastify reads a refusal's problems from the validator's `errors`, where ajv leaves them.
      validate.errors = compiled.errors;
      return valid;
    };
    validate.errors = undefined as ValidateFunction['errors'];
    return validate;
  };
}
