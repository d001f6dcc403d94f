/**
 * The benchmark's sender of POST batches, on a worker thread: a real exporter is another
 * program, so building requests and reading answers must not take the service's event loop,
 * heap and garbage collector. It keeps `concurrency` requests in flight over keep-alive
 * connections and times the whole list in the worker, from the first request sent to the last
 * answer read. Any answer but 2xx, or one reporting a partial success, fails the run.
 */
import { Agent, request } from 'node:http';
import { parentPort, Worker, workerData } from 'node:worker_threads';

export interface Batch {
  payload: Uint8Array;
  headers: Record<string, string>;
  items: number;
}

export interface Sent {
  perSecond: number;
  seconds: number;
}

interface Job {
  base: string;
  path: string;
  authorization: string;
  concurrency: number;
  batches: Batch[];
}

function post(agent: Agent, url: string, headers: Record<string, string>, payload: Uint8Array): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(payload.byteLength) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function run({ base, path, authorization, concurrency, batches }: Job): Promise<Sent> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++] as Batch;
      const { status, text } = await post(agent, `${base}${path}`, { authorization, ...batch.headers }, batch.payload);
      if (status >= 300 || text.includes('partialSuccess')) throw new Error(`${path}: ${status} ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return { perSecond: batches.reduce((n, b) => n + b.items, 0) / seconds, seconds };
}

if (parentPort && workerData?.batchSender) {
  const port = parentPort;
  port.on('message', (job: Job) => {
    run(job).then(
      (sent) => port.postMessage({ sent }),
      (err: Error) => port.postMessage({ error: err.message }),
    );
  });
}

/** Sends lists of batches from a worker thread, one list at a time. */
export class BatchSender {
  private readonly worker = new Worker(new URL(import.meta.url), { workerData: { batchSender: true } });

  /** POSTs every batch to base+path; resolves with the rate once the last answer is read. */
  send(job: Job): Promise<Sent> {
    return new Promise((resolve, reject) => {
      this.worker.once('message', (m: { sent?: Sent; error?: string }) => (m.sent ? resolve(m.sent) : reject(new Error(m.error))));
      this.worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
