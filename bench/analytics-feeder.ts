/**
 * The benchmark's clients, on a worker thread: request bodies are built there, in rounds, and
 * handed over before the round is sent. On a small machine the load generator would otherwise
 * take CPU from the service it measures (a quarter of a core on two cores); a real client
 * builds its bodies elsewhere.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { syntheticBatches, type SyntheticOptions } from './analytics-events.js';

if (parentPort && workerData?.feeder) {
  const batches = syntheticBatches(workerData.options as SyntheticOptions);
  const port = parentPort;
  port.on('message', ({ batches: most, events: atLeast }: { batches: number; events: number }) => {
    const round: string[] = [];
    for (let events = 0; round.length < most && events < atLeast;) {
      const next = batches.next();
      if (next.done) break;
      round.push(JSON.stringify({ events: next.value }));
      events += next.value.length;
    }
    port.postMessage(round);
  });
}

/** Hands out request bodies in order, a round at a time. */
export class Feeder {
  private readonly worker: Worker;
  private waiting: ((round: string[]) => void) | undefined;

  constructor(options: SyntheticOptions) {
    this.worker = new Worker(new URL(import.meta.url), { workerData: { feeder: true, options } });
    this.worker.on('message', (round: string[]) => this.waiting?.(round));
  }

  /** At most `batches` bodies, stopping once they hold `events` events; none when all are used up. */
  round(batches: number, events: number): Promise<string[]> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.worker.postMessage({ batches, events });
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
