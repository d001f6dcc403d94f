import fastJson from 'fast-json-stringify';

type Serialize = (data: unknown) => string;

/**
 * Fastify's serializer compiler, as its default builds it (fast-json-stringify with the shared
 * schemas), but each response schema is compiled on its first response rather than at start:
 * the app has several hundred, and a server, or a test's, answers few of them (a start spent
 * about a second compiling all of them).
 */
export function buildSerializer(externalSchemas: Record<string, unknown> = {}, serializerOpts: object = {}) {
  return ({ schema }: { schema: { $id?: string } }): Serialize => {
    let serialize: Serialize | undefined;
    return (data) => {
      if (!serialize) {
        // As Fastify's default: a schema that is itself one of the shared ones is not given twice.
        const shared =
          schema.$id !== undefined && schema.$id in externalSchemas
            ? Object.fromEntries(Object.entries(externalSchemas).filter(([id]) => id !== schema.$id))
            : externalSchemas;
        serialize = fastJson(schema as fastJson.Schema, { ...serializerOpts, schema: shared as Record<string, fastJson.Schema> });
      }
      return serialize(data);
    };
  };
}
