import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const API_VERSION = '0.1.0';

/** Registers OpenAPI generation from the route schemas, /openapi.json and the /docs browser. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'orgctl Organization Platform API',
        version: API_VERSION,
        description:
          'Usage limits, analytics, readiness reports, computers and CI automation for an AI coding agent. ' +
          'Every error body is the error object (detail, status, title, metadata, requestId).',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      // Relative: the document describes whichever installation serves it. Readiness report routes
      // are served on the application address, the same listener unless APP_PORT is set. /docs
      // names the service's own addresses instead (servedServers).
      servers: [{ url: '/', description: 'This orgctl service (readiness reports on its application address: APP_PORT when set)' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key (ock_…) or a JWT access token.' },
        },
      },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // The page shows this service's name, not the UI library's logo.
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO), href: '/docs', target: '_self' },
    theme: { title: 'orgctl API' },
    transformSpecification: (doc, request) => ({ ...doc, servers: servedServers(request) }),
  });
  app.get('/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async () => openApiDocument(app));
}

/**
 * The servers /docs lists: the address the page was read from (PUBLIC_URL when set), and the
 * application address of readiness reports when APP_PORT gives it a listener of its own.
 */
export function servedServers(request: FastifyRequest): { url: string; description: string }[] {
  const api = { url: request.publicUrl, description: 'This orgctl service' };
  const app = new URL(request.appUrl).origin;
  return app === new URL(api.url).origin ? [api] : [api, { url: app, description: 'Its application address (readiness reports, the web app)' }];
}

const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" viewBox="0 0 120 32"><text x="0" y="24" ' +
  'font-family="sans-serif" font-size="24" font-weight="700" fill="#ffffff">orgctl</text></svg>';

/** The OpenAPI document with its keys sorted, as committed to the repository. */
export function openApiDocument(app: FastifyInstance): unknown {
  return sortKeys(describeResponses(app.swagger() as unknown as Document));
}

type Document = { paths?: Record<string, Record<string, { responses?: Record<string, { description?: string }> }>> };

/** A response the route schema did not describe is named by its status (Created, No Content), not "Default Response". */
function describeResponses(doc: Document): Document {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (response.description === 'Default Response') response.description = STATUS_CODES[Number(status)] ?? 'Response';
      }
    }
  }
  return doc;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
