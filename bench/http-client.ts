/**
 * The benchmark's HTTP client, on a worker thread: a real client is another program, so reading
 * a 50 MB answer must not load the service's heap and garbage collector, nor queue behind the
 * service's own work on its event loop. The time of a call is taken in the worker, from sending
 * the request to the last byte of the body.
 */
import { Agent, get as httpGet } from 'node:http';
import { parentPort, Worker, workerData } from 'node:worker_threads';

export interface Answer {
  status: number;
  bytes: number;
  ms: number;
  /** The body, kept only when the status is not 200. */
  text: string;
}

if (parentPort && workerData?.httpClient) {
  const port = parentPort;
  const { base, authorization } = workerData as { base: string; authorization: string };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  port.on('message', ({ id, url }: { id: number; url: string }) => {
    const t0 = performance.now();
    const fail = (err: Error) => port.postMessage({ id, error: err.message });
    const req = httpGet(`${base}${url}`, { agent, headers: { authorization } }, (res) => {
      const kept: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (res.statusCode !== 200) kept.push(c);
      });
      res.on('end', () =>
        port.postMessage({ id, answer: { status: res.statusCode ?? 0, bytes, ms: performance.now() - t0, text: Buffer.concat(kept).toString() } }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
  });
}

/** GETs over one keep-alive connection, from a worker thread. */
export class HttpClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  private nextId = 0;

  constructor(base: string, authorization: string) {
    this.worker = new Worker(new URL(import.meta.url), { workerData: { httpClient: true, base, authorization } });
    this.worker.on('message', (m: { id: number; answer?: Answer; error?: string }) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.answer) p?.resolve(m.answer);
      else p?.reject(new Error(m.error));
    });
  }

  get(url: string): Promise<Answer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, url });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
