import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { serverOptions } from './connections.js';
import { ErrorObject } from './error-schema.js';
import { clientErrorHandler, frameworkErrors } from './error-handler.js';
import { genRequestId } from './request-log.js';
import { buildSerializer } from './serialization.js';
import { buildValidator } from './validation.js';

const BODY_LIMIT = 1024 * 1024;

/**
 * The Fastify instance every listener starts from: logging, timeouts, error format. Its own
 * module, so that the health listener's thread (health-worker.ts) builds one without loading the
 * service's routes.
 */
export function baseApp(config: Config, log: FastifyBaseLogger): FastifyInstance {
  const app = Fastify({
    loggerInstance: log,
    genReqId: genRequestId,
    // Fastify's two lines per request are replaced by our single one (core/http/request-log.ts).
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // Which X-Forwarded-* headers are believed: request.ip, request.protocol and request.host follow them.
    trustProxy: config.trustProxy,
    // Header, request, keep-alive and idle timeouts: a client that never finishes cannot hold a connection.
    ...serverOptions(config),
    // Requests arriving on open connections while shutting down are still served, in our error format if they fail.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    frameworkErrors,
    clientErrorHandler,
    schemaController: { compilersFactory: { buildValidator: buildValidator as never, buildSerializer: buildSerializer as never } },
  });
  app.addSchema(ErrorObject);
  return app;
}
