import fc from 'fast-check';

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
};

/** Values a careless or hostile client sends: NUL bytes, huge and odd numbers, long strings, wrong types. */
export const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('', '\u0000', 'a\u0000b', '%00', '..', '../../etc/passwd', 'ext::sh -c id', '💥'.repeat(50), 'x'.repeat(70_000)),
  fc.constantFrom(1e308, -1e308, 2 ** 63, -(2 ** 53) - 2, 8.64e15 + 1, 0.5, -1, 0, Number.MAX_SAFE_INTEGER),
  fc.constantFrom(null, true, false, [], {}, [null], { a: '\u0000' }),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: true }),
);

/**
 * Requests shaped by a JSON schema of openapi.json, with any node replaced, now and then, by a
 * nasty value: most requests reach deep into the handlers, the rest test what guards them.
 */
export function fromSchema(schema: Schema | undefined, doc: { components?: { schemas?: Record<string, Schema> } }, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return nasty;
  if (schema.$ref) return fromSchema(doc.components?.schemas?.[schema.$ref.split('/').pop()!], doc, depth + 1);
  const shaped = shapedBy(schema, doc, depth);
  return fc.oneof({ arbitrary: shaped, weight: 4 }, { arbitrary: nasty, weight: 1 });
}

function shapedBy(schema: Schema, doc: Parameters<typeof fromSchema>[1], depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => fromSchema(s, doc, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = Object.entries(schema.properties ?? {});
      if (props.length === 0) return fc.dictionary(fc.string({ maxLength: 20 }), nasty, { maxKeys: 3 });
      return fc.record(Object.fromEntries(props.map(([k, s]) => [k, fromSchema(s, doc, depth + 1)])), {
        requiredKeys: schema.required?.filter((k) => schema.properties?.[k]) ?? [],
      });
    }
    case 'array':
      return fc.array(fromSchema(schema.items, doc, depth + 1), { maxLength: 4 });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1e9, Number.MAX_SAFE_INTEGER) });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date' || /date/i.test(String(schema.description ?? '')))
        return fc.constantFrom('2026-10-01', '2026-02-30', '2026-01-13', '2999-01-01');
      return fc.string({ maxLength: Math.min(schema.maxLength ?? 30, 30) });
    default:
      return nasty;
  }
}
