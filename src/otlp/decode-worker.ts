// A decoding thread (decoder.ts): reads the records of large export bodies off the event loop.
import { parentPort } from 'node:worker_threads';
import { AppError } from '../core/http/errors.js';
import { decodeExport, pack, type Signal } from './decode.js';

export interface DecodeTask {
  id: number;
  signal: Signal;
  protobuf: boolean;
  chunks: Uint8Array[];
  length: number;
}

export type DecodeReply = { id: number } & ({ ok: true; packed: ReturnType<typeof pack> } | { ok: false; badRequest: string } | { ok: false; failure: string });

parentPort!.on('message', ({ id, signal, protobuf, chunks, length }: DecodeTask) => {
  let reply: DecodeReply;
  try {
    const bytes = Buffer.concat(chunks, length);
    reply = { id, ok: true, packed: pack(signal, decodeExport(signal, protobuf, bytes)) };
  } catch (e) {
    reply =
      e instanceof AppError && e.status === 400 ? { id, ok: false, badRequest: e.detail } : { id, ok: false, failure: (e as Error)?.message ?? String(e) };
  }
  parentPort!.postMessage(reply);
});
