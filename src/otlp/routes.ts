import type { IncomingMessage } from 'node:http';
import { createGunzip, gunzipSync } from 'node:zlib';
import { Type } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../core/http/access.js';
import { holdBodyBytes, type BodyBudget } from '../core/http/body-budget.js';
import { toAppError } from '../core/http/error-handler.js';
import { AppError, errors, titleOf } from '../core/http/errors.js';
import { ErrorObject, errorResponses } from '../core/http/error-schema.js';
import { access } from '../core/identity/roles.js';
import { collectBody, joined, type BodyChunks } from './body-chunks.js';
import { OtlpDecoder } from './decoder.js';
import { encode, messages } from './proto.js';
import type { OtlpService } from './service.js';

/** An export may hold at most this much, after decompression (docs/otlp.md "Transport"). */
export const OTLP_MAX_BYTES = 20 * 1024 * 1024;

const PROTOBUF = 'application/x-protobuf';
const INFLATE_CHUNK = 64 * 1024;
/**
 * A gzip body this small (an exporter's usual batch is a few KB) is inflated at once on the event
 * loop, up to INFLATE_AT_ONCE_MAX bytes: zlib's asynchronous way (a stream, and a round trip to
 * libuv's pool per chunk) cost more CPU than the inflating itself (docs/otlp.md, Performance).
 * A body that inflates further goes the asynchronous way, to the export's limit.
 */
const INFLATE_AT_ONCE_BODY = 16 * 1024;
const INFLATE_AT_ONCE_MAX = 1024 * 1024;

const RESPONSE = { metrics: messages.metricsResponse, logs: messages.logsResponse, traces: messages.tracesResponse };
/** Warns of a kind of unmapped records once per kind and app (`warned`, one app per process in serve), not per export. */
function warnUnmapped(warned: Set<string>, log: FastifyBaseLogger, kind: string): void {
  if (warned.has(kind)) return;
  warned.add(kind);
  log.warn({ kind }, `${kind} that orgctl does not know how to read were rejected (counted in partialSuccess); a newer client may name its events differently`);
}

const REJECTED = { metrics: 'rejectedDataPoints', logs: 'rejectedLogRecords', traces: 'rejectedSpans' } as const;

/** gRPC status codes of google.rpc.Status, by HTTP status. */
const GRPC_CODE: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 413: 8, 415: 3, 429: 8, 503: 14 };

const isProtobuf = (request: FastifyRequest) => (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === PROTOBUF;

/**
 * The body as sent, inflated when gzip; refused while inflating once it passes the limit. What
 * inflating produces is held against the process's body budget as it comes out (`hold` throws
 * the 503 of a full budget), so many exports inflating at once cannot take the process's memory.
 */
async function rawBody(request: FastifyRequest, hold: (bytes: number) => void): Promise<BodyChunks> {
  const body = request.body as BodyChunks | undefined;
  if (!body || body.length === 0) throw errors.badRequest('The export has no body.');
  const encoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return body;
  if (encoding !== 'gzip') throw new AppError('unsupported_media_type', `Content-Encoding ${encoding} is not supported; send gzip or none.`);
  if (body.length <= INFLATE_AT_ONCE_BODY) {
    let small: Buffer | undefined;
    try {
      small = gunzipSync(joined(body), { maxOutputLength: INFLATE_AT_ONCE_MAX });
    } catch (e) {
      if (!tooLarge(e)) throw notGzip();
    }
    if (small) {
      hold(small.length);
      return { chunks: [small], length: small.length };
    }
  }
  return inflate(body, hold);
}

/** Inflated in chunks of 64 KiB rather than zlib's 16 (fewer round trips to the thread pool per export), each held as it comes. */
function inflate(body: BodyChunks, hold: (bytes: number) => void): Promise<BodyChunks> {
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip({ chunkSize: INFLATE_CHUNK });
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      gunzip.destroy();
      reject(e);
    };
    gunzip.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > OTLP_MAX_BYTES) return fail(new AppError('body_too_large', `The export inflates past ${OTLP_MAX_BYTES} bytes; send smaller batches.`));
      try {
        hold(chunk.length);
      } catch (e) {
        return fail(e);
      }
      chunks.push(chunk);
    });
    gunzip.on('error', () => fail(notGzip()));
    gunzip.on('end', () => resolve({ chunks, length: size }));
    for (const chunk of body.chunks) gunzip.write(chunk);
    gunzip.end();
  });
}

/** zlib's refusal to inflate past maxOutputLength. */
const tooLarge = (e: unknown) => (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError;
const notGzip = () => errors.badRequest('The body is not valid gzip.');

/**
 * A failure in the request's own encoding: protobuf gets a google.rpc.Status, JSON our error
 * object with Status's code and message. Nothing is a 500: OTLP clients retry only 429 and
 * 502-504, so an unexpected failure is a 503 they will retry rather than data they drop.
 */
function sendOtlpError(request: FastifyRequest, reply: FastifyReply, thrown: Error) {
  let err = toAppError(thrown, request);
  if (err.status >= 500 && err.status !== 503) err = errors.unavailable('The export could not be stored now. Try again shortly.', 5, 'unavailable', err);
  if (err.headers) reply.headers(err.headers);
  const code = GRPC_CODE[err.status] ?? 2;
  reply.code(err.status);
  if (isProtobuf(request)) return reply.type(PROTOBUF).send(encode(messages.status, { code, message: err.detail }));
  return reply.type('application/json; charset=utf-8').send({
    detail: err.detail,
    status: err.status,
    title: titleOf(err.status),
    metadata: { code: err.code, ...err.metadata },
    requestId: request.id,
    code,
    message: err.detail,
  });
}

/** The error object with google.rpc.Status's code and message (JSON requests; protobuf ones get a Status). */
const OtlpError = Type.Object(
  {
    ...ErrorObject.properties,
    code: Type.Integer({ description: 'The google.rpc.Code of the failure' }),
    message: Type.String({ description: 'Equals detail' }),
  },
  { title: 'OtlpError' },
);
// Every documented failure but 500, which this receiver never answers (see sendOtlpError).
const otlpErrors = Object.fromEntries(
  Object.entries(errorResponses(400, 401, 413, 415, 429, 503))
    .filter(([status]) => status !== '500')
    .map(([status, schema]) => [status, { ...OtlpError, description: schema.description }]),
);

/** POST /v1/metrics, /v1/logs and /v1/traces at the root of {base_url}: OTLP/HTTP, protobuf or JSON. */
export const otlpRoutes: FastifyPluginAsync<{ otlp: OtlpService; bodies: BodyBudget }> = async (app, { otlp, bodies }) => {
  // Bodies are read as bytes here (the rest of the API takes only JSON): decoded by content type below.
  app.removeAllContentTypeParsers();
  for (const type of [PROTOBUF, 'application/json'])
    app.addContentTypeParser(type, (request: FastifyRequest, payload: IncomingMessage) => collectBody(request, payload, OTLP_MAX_BYTES));
  app.setErrorHandler((err, request, reply) => sendOtlpError(request, reply, err as Error));
  const decoder = new OtlpDecoder();
  app.addHook('onClose', () => decoder.close());
  const warned = new Set<string>();

  for (const signal of ['metrics', 'logs', 'traces'] as const) {
    app.post(
      `/v1/${signal}`,
      {
        bodyLimit: OTLP_MAX_BYTES,
        config: { access: access.anyone, scope: 'telemetry:write', rateClass: 'ingest', accepts: [PROTOBUF, 'application/json'] },
        schema: {
          operationId: `otlp.${signal}`,
          tags: ['otlp'],
          summary: `OTLP/HTTP ${signal} export (application/x-protobuf or application/json, gzip allowed; at most 20 MiB inflated)`,
          description:
            `An Export${signal === 'traces' ? 'Trace' : signal === 'logs' ? 'Logs' : 'Metrics'}ServiceRequest. Answers 200 with the Export…ServiceResponse in the request's content type; ` +
            'records that cannot be used are counted in partialSuccess. Failures: 400 undecodable, 413 too large, 415 other content type, 503 with Retry-After when storage is unavailable. ' +
            'Errors are the error object plus code and message in JSON, a google.rpc.Status in protobuf. See docs/otlp.md.',
          response: {
            200: Type.Object(
              {
                partialSuccess: Type.Optional(
                  Type.Object({
                    [REJECTED[signal]]: Type.Integer({ minimum: 1, description: 'Records that could not be used' }),
                    errorMessage: Type.String({ description: 'Why, for the first few reasons' }),
                  }),
                ),
              },
              { description: 'Stored. In protobuf: the Export…ServiceResponse message (empty when everything was used).' },
            ),
            ...otlpErrors,
          },
        },
      },
      async (request, reply) => {
        const body = await rawBody(request, (bytes) => holdBodyBytes(request, reply, bodies, bytes));
        const caller = principalOf(request);
        const protobuf = isProtobuf(request);
        const outcome =
          signal === 'metrics'
            ? await otlp.exportMetrics(caller, await decoder.decode(signal, protobuf, body))
            : signal === 'logs'
              ? await otlp.exportLogs(caller, await decoder.decode(signal, protobuf, body))
              : await otlp.exportSpans(caller, await decoder.decode(signal, protobuf, body));
        for (const kind of outcome.unmapped) warnUnmapped(warned, request.log, kind);
        const response = outcome.rejected > 0 ? { partialSuccess: { [REJECTED[signal]]: outcome.rejected, errorMessage: outcome.errorMessage } } : {};
        reply.code(200);
        if (isProtobuf(request)) return reply.type(PROTOBUF).send(encode(RESPONSE[signal], response));
        return reply.type('application/json').send(response);
      },
    );
  }
};
