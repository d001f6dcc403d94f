// The health listener's thread (health-thread.ts): HEALTH_PORT, served off the main event loop.
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../config.js';
import { systemClock } from '../clock.js';
import type { Db } from '../db/db.js';
import { serviceLog } from '../log.js';
import { baseApp } from './base-app.js';
import { ConnectionGuard, type SharedConnections } from './connections.js';
import { registerErrorHandling } from './error-handler.js';
import { errors } from './errors.js';
import { healthCheckRoutes, inTime, READY_TIMEOUT_MS } from './health.js';
import { Heartbeat, STALL_BOUND_MS } from './heartbeat.js';
import { registerRequestLog } from './request-log.js';
import { registerSecurityHeaders } from './security-headers.js';

export interface HealthWorkerData {
  config: Config;
  heartbeat: SharedArrayBuffer;
  connections: SharedConnections;
}

/** From the main thread: the answer to a readiness question, or the order to stop. */
export type ToHealthThread = { type: 'ready'; id: number; engine?: Db['engine']; failure?: string } | { type: 'close' };

/** To the main thread: where it listens (or why not), and readiness questions. */
export type FromHealthThread =
  { type: 'listening'; port: number } | { type: 'failed'; message: string; code?: string; port?: number } | { type: 'ready?'; id: number };

const { config, heartbeat, connections } = workerData as HealthWorkerData;
const port = parentPort!;
const send = (message: FromHealthThread) => port.postMessage(message);
const log = serviceLog(config);
const beats = new Heartbeat(heartbeat);

/** Readiness questions sent to the main thread, by id. */
const asked = new Map<number, { resolve: (engine: Db['engine']) => void; reject: (e: Error) => void }>();
let nextId = 1;

/**
 * The database lives in the main thread (PGlite in its own thread, owned by the main one; a
 * PostgreSQL pool), so readiness is asked there when it is asked here: the answer is of now, and
 * a main thread that does not answer within READY_TIMEOUT_MS is not ready either.
 */
function askReady(): Promise<Db['engine']> {
  const id = nextId++;
  const answer = new Promise<Db['engine']>((resolve, reject) => asked.set(id, { resolve, reject }));
  send({ type: 'ready?', id });
  return inTime(answer, READY_TIMEOUT_MS).finally(() => asked.delete(id));
}

/** 503 once the main thread's event loop has not turned for STALL_BOUND_MS: it serves nothing then. */
function live(): void {
  if (!beats.stalled(systemClock)) return;
  const seconds = Math.round(beats.age(systemClock) / 1000);
  throw errors.unavailable(`The service's event loop has not turned for ${seconds} s (more than ${STALL_BOUND_MS / 1000} s).`, 5);
}

async function main(): Promise<void> {
  const app = baseApp(config, log);
  registerRequestLog(app);
  registerSecurityHeaders(app);
  registerErrorHandling(app);
  // The bound already lowered to the open-file limit by the main thread's guard: not read twice.
  const guard = new ConnectionGuard({
    settings: { maxConnections: connections.maxConnections, maxPerAddress: config.httpMaxConnectionsPerAddress, firstByteMs: config.httpHeadersTimeoutMs },
    log,
    openFiles: () => undefined,
    openCount: connections.openCount,
  });
  guard.attach(app.server);
  await app.register(healthCheckRoutes, { live, ready: askReady });

  port.on('message', (message: ToHealthThread) => {
    if (message.type === 'ready') {
      const question = asked.get(message.id);
      if (message.engine) question?.resolve(message.engine);
      else question?.reject(new Error(message.failure ?? 'readiness check failed'));
      return;
    }
    // In-flight checks are answered, then the thread ends with nothing left to run.
    app.close().then(
      () => port.close(),
      (err: unknown) => {
        log.error({ err }, 'closing the health listener failed');
        port.close();
      },
    );
  });

  try {
    await app.listen({ host: config.host, port: config.healthPort ?? 0 });
  } catch (e) {
    const { code, port: failedPort } = e as { code?: string; port?: number };
    send({ type: 'failed', message: (e as Error).message ?? String(e), code, port: failedPort });
    await app.close();
    port.close();
    return;
  }
  send({ type: 'listening', port: (app.server.address() as AddressInfo).port });
}

void main();
