/**
 * Probes `/healthz` on a thread of its own until told to stop: the benchmark's main thread
 * generates load (writes of many large bodies keep it busy for hundreds of ms), and a probe that
 * waited behind that would time the load generator, not the service. A load balancer's health
 * check never shares the client's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { probeHealthUntil } from '../test/helpers/slow-clients.js';

export interface ProbeOptions {
  port: number;
  everyMs: number;
  from: string;
}

const { port, everyMs, from } = workerData as ProbeOptions;
const stop = new Promise<void>((resolve) => parentPort!.once('message', () => resolve()));
parentPort!.postMessage('started');
parentPort!.postMessage(await probeHealthUntil(port, stop, everyMs, from));
