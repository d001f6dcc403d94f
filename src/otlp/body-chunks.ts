import type { Readable } from 'node:stream';
import { errorCodes, type FastifyRequest } from 'fastify';

/**
 * An export's body as the chunks it arrived in. Large bodies are decoded in a thread
 * (decoder.ts), which takes the chunks themselves: joining 19 MiB on the event loop costs tens of
 * milliseconds of copying that /healthz would wait behind.
 */
export interface BodyChunks {
  chunks: Buffer[];
  length: number;
}

export const joined = ({ chunks, length }: BodyChunks): Buffer => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length));

/**
 * Reads the body (after the preParsing hooks) as Fastify's own buffer parser does, with its
 * errors: 413 past `limit` (announced or received, before inflating), 400 when the bytes received
 * are not those announced, a read error as the client's. Unlike it, keeps the chunks apart.
 */
export function collectBody(request: FastifyRequest, payload: Readable & { receivedEncodedLength?: number }, limit: number): Promise<BodyChunks> {
  const announced = Number(request.headers['content-length']);
  if (announced > limit) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const stop = () => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onEnd);
    };
    function onData(chunk: Buffer | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      length += bytes.length;
      if (length > limit || (payload.receivedEncodedLength ?? 0) > limit) {
        stop();
        return reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      }
      chunks.push(bytes);
    }
    function onEnd(err?: Error & { statusCode?: number }) {
      stop();
      if (err) {
        if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
        return reject(err);
      }
      if (!Number.isNaN(announced) && (payload.receivedEncodedLength || length) !== announced)
        return reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      resolve({ chunks, length });
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
}
