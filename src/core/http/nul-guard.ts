import type { FastifyInstance } from 'fastify';
import { errors, type ErrorItem } from './errors.js';

/**
 * PostgreSQL text cannot hold the NUL character, so a string carrying one would fail in the
 * database with a 500. Every request is checked here instead, once: the JSON body (see
 * `bodyNulErrors`), the path parameters and the query string. The answer is 400 naming each field.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const params = nulPaths(request.params);
    if (params.length > 0) return done(errors.invalid(params, 'params'));
    const query = nulPaths(request.query);
    if (query.length > 0) return done(errors.invalid(query, 'querystring'));
    done();
  });
}

/** The NUL-carrying strings of a parsed JSON body. Only a body whose text escapes a NUL can have any. */
export function bodyNulErrors(text: string, body: unknown): ErrorItem[] {
  return text.includes('\\u0000') ? nulPaths(body) : [];
}

function nulPaths(value: unknown, path = '', out: ErrorItem[] = []): ErrorItem[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push({ path, message: 'must not contain the NUL character (\\u0000)' });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => nulPaths(v, `${path}/${i}`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000'))
        out.push({ path: `${path}/${k.replaceAll('\u0000', '\\u0000')}`, message: 'is a property name with the NUL character (\\u0000)' });
      nulPaths(v, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
    }
  }
  return out;
}
