import { Worker } from 'node:worker_threads';
import { builtWorkerUrl } from '../built-worker.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock, Timer } from '../clock.js';
import type { Db } from '../db/db.js';
import type { ConnectionGuard } from './connections.js';
import { checkDatabase } from './health.js';
import { Heartbeat } from './heartbeat.js';
import type { FromHealthThread, HealthWorkerData, ToHealthThread } from './health-worker.js';

export interface HealthThreadDeps {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  /** The process's connection bounds: the health listener counts with the others. */
  connections: ConnectionGuard;
  /** Whose timer writes the heartbeat: the real time's (the system clock), as the thread reads it. */
  clock: Clock;
}

/** A listening port, or an Error with the `code` and `port` of Node's listen errors. */
type Started = { port: number } | { error: Error };

/**
 * The HEALTH_PORT listener, in a thread of its own (health-worker.ts): Node reads the sockets of
 * the main thread's listeners on the main event loop, so while it is busy (120 exports of 19 MiB
 * arriving at once) a check on any listener of that loop waits for it. The thread answers
 * `/healthz` from the main thread's heartbeat (heartbeat.ts), written here every 200 ms: 200 while
 * the main event loop turns, 503 once it has not for 5 s. `/readyz` is asked of this thread.
 */
export class HealthThread {
  private readonly worker: Worker;
  private readonly beating: Timer;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly deps: HealthThreadDeps,
    heartbeat: Heartbeat,
  ) {
    this.beating = heartbeat.start(deps.clock);
    const data: HealthWorkerData = { config: deps.config, heartbeat: heartbeat.buffer, connections: deps.connections.shared() };
    this.worker = new Worker(builtWorkerUrl('./health-worker.js', import.meta.url), { workerData: data });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('message', (message: FromHealthThread) => {
      if (message.type === 'ready?') void this.answerReady(message.id);
    });
    // A thread that fails leaves HEALTH_PORT unanswered: its checks fail, as they should.
    this.worker.on('error', (err) => deps.log.error({ err }, 'the health listener thread failed'));
  }

  /** Starts the thread and its listener on `config.healthPort`; rejects as `app.listen` does when it cannot listen. */
  static async start(deps: HealthThreadDeps): Promise<{ thread: HealthThread; port: number }> {
    const thread = new HealthThread(deps, new Heartbeat());
    const started = await new Promise<Started>((resolve) => {
      thread.worker.on('message', (message: FromHealthThread) => {
        if (message.type === 'listening') resolve({ port: message.port });
        if (message.type === 'failed') resolve({ error: Object.assign(new Error(message.message), { code: message.code, port: message.port }) });
      });
      thread.worker.once('error', (error) => resolve({ error }));
      thread.worker.once('exit', (code) => resolve({ error: new Error(`the health listener thread exited with code ${code}`) }));
    });
    if ('error' in started) {
      await thread.close();
      throw started.error;
    }
    return { thread, port: started.port };
  }

  /** Stops the listener (in-flight checks are answered) and the thread, then the heartbeat. */
  async close(): Promise<void> {
    const close: ToHealthThread = { type: 'close' };
    this.worker.postMessage(close);
    await this.exited;
    this.beating.cancel();
  }

  private async answerReady(id: number): Promise<void> {
    let answer: ToHealthThread;
    try {
      answer = { type: 'ready', id, engine: await checkDatabase(this.deps.db) };
    } catch (err) {
      // Logged by the thread, with the request's id.
      answer = { type: 'ready', id, failure: (err as Error)?.message ?? String(err) };
    }
    this.worker.postMessage(answer);
  }
}
