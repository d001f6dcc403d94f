/**
 * The benchmark's clients, on a worker thread: each request for a batch is answered with its
 * JSON body, built off the service's thread as a real client would build it elsewhere.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { syntheticBatches, type SyntheticOptions } from './analytics-events.js';

if (parentPort && workerData?.feeder) {
  const batches = syntheticBatches(workerData.options as SyntheticOptions);
  const port = parentPort;
  port.on('message', () => {
    const next = batches.next();
    port.postMessage(next.done ? null : JSON.stringify({ events: next.value }));
  });
}

/** Hands out request bodies in order, keeping `ahead` of them built in advance. */
export class Feeder {
  private readonly worker: Worker;
  private readonly waiting: ((body: string | null) => void)[] = [];
  private readonly ready: (string | null)[] = [];
  private asked = 0;

  constructor(options: SyntheticOptions, private readonly ahead = 8) {
    this.worker = new Worker(new URL(import.meta.url), { workerData: { feeder: true, options } });
    this.worker.on('message', (body: string | null) => {
      this.asked--;
      const w = this.waiting.shift();
      if (w) w(body);
      else this.ready.push(body);
    });
    this.top();
  }

  private top() {
    while (this.asked + this.ready.length < this.ahead) {
      this.asked++;
      this.worker.postMessage('next');
    }
  }

  /** The next body, or null when the batches are used up. */
  next(): Promise<string | null> {
    const body = this.ready.length > 0 ? this.ready.shift()! : undefined;
    const p = body !== undefined ? Promise.resolve(body) : new Promise<string | null>((resolve) => this.waiting.push(resolve));
    this.top();
    return p;
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
