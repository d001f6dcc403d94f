import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { builtWorkerUrl } from '../core/built-worker.js';
import { errors } from '../core/http/errors.js';
import { joined, type BodyChunks } from './body-chunks.js';
import { decodeExport, unpack, type Records, type Signal } from './decode.js';
import type { DecodeReply, DecodeTask } from './decode-worker.js';

/**
 * Bodies at least this large are decoded in a thread: a few milliseconds of decoding on the event
 * loop. Exporters' usual batches (a few KB to a few hundred) stay on the loop, where a round trip
 * to a thread would cost more than it saves.
 */
export const DECODE_IN_THREAD_BYTES = 256 * 1024;

/** One thread per core but the event loop's, at most 4. */
const defaultThreads = () => Math.max(1, Math.min(4, availableParallelism() - 1));

interface Pending {
  signal: Signal;
  resolve: (records: Records[Signal]) => void;
  reject: (e: Error) => void;
}

class Thread {
  readonly pending = new Map<number, Pending>();
  readonly worker: Worker;

  constructor(onGone: (t: Thread) => void) {
    this.worker = new Worker(builtWorkerUrl('./decode-worker.js', import.meta.url));
    // An idle thread does not keep the process alive; close() ends it with the service.
    this.worker.unref();
    this.worker.on('message', (reply: DecodeReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (reply.ok) p.resolve(unpack(p.signal, reply.packed));
      else if ('badRequest' in reply) p.reject(errors.badRequest(reply.badRequest));
      else p.reject(new Error(`decoding an export failed: ${reply.failure}`));
    });
    const gone = (why: string) => {
      onGone(this);
      for (const p of this.pending.values()) p.reject(errors.unavailable(`The export could not be decoded now (${why}). Try again shortly.`));
      this.pending.clear();
    };
    this.worker.on('error', (e) => gone(e.message));
    this.worker.on('exit', (code) => gone(`its thread exited with code ${code}`));
  }
}

/**
 * Decodes export bodies: small ones at once, large ones in a few threads, so that the event loop
 * answers /healthz and every other request while many large exports are read (a 19 MiB export
 * takes tens to hundreds of milliseconds to decode). A thread that fails is replaced by the next
 * large body; the exports it held get 503, which exporters retry.
 */
export class OtlpDecoder {
  private readonly threads: Thread[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly maxThreads = defaultThreads(),
    private readonly inThreadBytes = DECODE_IN_THREAD_BYTES,
  ) {}

  decode<S extends Signal>(signal: S, protobuf: boolean, body: BodyChunks): Promise<Records[S]> {
    if (body.length < this.inThreadBytes || this.closed) return Promise.resolve().then(() => decodeExport(signal, protobuf, joined(body)));
    const thread = this.leastBusy();
    const id = this.nextId++;
    // A chunk's memory moves to the thread when the chunk is its buffer's alone (as a socket's
    // reads are); a view into a shared buffer (a chunked body's parts, inflated output) is copied.
    const chunks = body.chunks.map((c) => (c.byteOffset === 0 && c.byteLength === c.buffer.byteLength ? c : new Uint8Array(c)));
    return new Promise<Records[S]>((resolve, reject) => {
      thread.pending.set(id, { signal, resolve: resolve as (r: Records[Signal]) => void, reject });
      const task: DecodeTask = { id, signal, protobuf, chunks, length: body.length };
      thread.worker.postMessage(task, [...new Set(chunks.map((c) => c.buffer as ArrayBuffer))]);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.splice(0).map((t) => t.worker.terminate()));
  }

  private leastBusy(): Thread {
    const idle = this.threads.find((t) => t.pending.size === 0);
    if (idle) return idle;
    if (this.threads.length < this.maxThreads) {
      const thread = new Thread((gone) => {
        const at = this.threads.indexOf(gone);
        if (at >= 0) this.threads.splice(at, 1);
      });
      this.threads.push(thread);
      return thread;
    }
    return this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }
}
