import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, type AppError } from './errors.js';

/** What a shed request is told to wait: long enough for a few exports in flight to finish. */
const RETRY_AFTER_S = 2;

/**
 * The bytes of request bodies this process holds at once, bounded: a body's announced length
 * from the moment its headers arrive (or its bytes as they arrive, when it announces none), and
 * what inflating it produces, until its response is done. Without it, 120 members each sending
 * a 19 MiB export at the same time took the process to 3 GB. One per process, shared by its
 * listeners.
 */
export class BodyBudget {
  private held = 0;

  constructor(readonly maxBytes: number) {}

  get bytesHeld(): number {
    return this.held;
  }

  /** Takes `bytes` if they fit beside what is held. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.maxBytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}

/** What one request holds, given back once, when its response is done or its connection is gone. */
class Hold {
  private bytes = 0;
  private released = false;

  constructor(private readonly budget: BodyBudget) {}

  take(bytes: number): boolean {
    if (this.released || !this.budget.take(bytes)) return false;
    this.bytes += bytes;
    return true;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.give(this.bytes);
  }
}

const holds = new WeakMap<FastifyRequest['raw'], Hold>();

/** The 503 of a request that would pass the budget, in the error format of its route (OTLP answers in its own encoding). */
export const bodyBudgetExceeded = (): AppError =>
  errors.unavailable('The service is reading as many request bodies as it can hold right now. Try again shortly.', RETRY_AFTER_S, 'overloaded');

/** The request's hold, made on first use; it is given back when the response's 'close' comes (sent, or its connection gone). */
function holdOf(request: FastifyRequest, reply: FastifyReply, budget: BodyBudget): Hold {
  let hold = holds.get(request.raw);
  if (!hold) {
    const created = new Hold(budget);
    holds.set(request.raw, created);
    reply.raw.once('close', () => created.release());
    hold = created;
  }
  return hold;
}

/**
 * Holds every request body against `budget` before it is read (Fastify's preParsing). A body
 * whose length is known is held whole at once, so a request that cannot fit is answered 503 before
 * a byte of it is buffered; one sent in chunks is held as its bytes arrive. A body announced
 * larger than its route accepts is left to the route's 413.
 */
export function registerBodyBudget(app: FastifyInstance, budget: BodyBudget): void {
  app.addHook('preParsing', async (request, reply, payload) => {
    const length = Number(request.headers['content-length']);
    const chunked = request.headers['transfer-encoding'] !== undefined;
    if (!(length > 0) && !chunked) return payload;
    const hold = holdOf(request, reply, budget);
    if (!chunked) {
      if (length <= request.routeOptions.bodyLimit && !hold.take(length)) throw bodyBudgetExceeded();
      return payload;
    }
    let received = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        (counted as Transform & { receivedEncodedLength: number }).receivedEncodedLength = received;
        if (!hold.take(chunk.length)) return done(bodyBudgetExceeded());
        done(null, chunk);
      },
    });
    return payload.pipe(counted);
  });
}

/**
 * Holds `bytes` more for `request` (what inflating its body produces), or throws the 503 of a
 * full budget. Given back with the rest of its hold.
 */
export function holdBodyBytes(request: FastifyRequest, reply: FastifyReply, budget: BodyBudget, bytes: number): void {
  if (!holdOf(request, reply, budget).take(bytes)) throw bodyBudgetExceeded();
}
