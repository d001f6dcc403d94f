import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { systemClock, type Timer } from '../clock.js';
import type { Db } from '../db/db.js';
import { errorResponses } from './error-schema.js';
import { errors } from './errors.js';

const Health = Type.Object({ status: Type.Literal('ok') });
const Ready = Type.Object({ status: Type.Literal('ok'), database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]) });
export const READY_TIMEOUT_MS = 2000;

/** What the two health routes ask: how the main port and the health listener's thread differ. */
export interface HealthChecks {
  /**
   * Throws (a 503) when the process should be taken out. On the main port there is none:
   * answering at all proves the event loop turns. The health listener's thread answers on its
   * own, so it asks the main thread's heartbeat (heartbeat.ts).
   */
  live?: () => void;
  /** The database engine, once a query answered within READY_TIMEOUT_MS; rejects otherwise. */
  ready: () => Promise<Db['engine']>;
}

/** `promise`, or a rejection once `ms` have passed in real time (the system clock's timer), whatever the service's clock says. */
export async function inTime<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: Timer | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = systemClock.timeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    timer?.cancel();
  }
}

/** The readiness check of the main thread: a query that answers within READY_TIMEOUT_MS. */
export async function checkDatabase(db: Db): Promise<Db['engine']> {
  await inTime(db.query('SELECT 1'), READY_TIMEOUT_MS);
  return db.engine;
}

/** `/healthz` and `/readyz` of the main port (and of the application address's). */
export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  await app.register(healthCheckRoutes, { ready: () => checkDatabase(db) });
};

/** The two routes, over the checks of the thread that serves them. */
export const healthCheckRoutes: FastifyPluginAsyncTypebox<HealthChecks> = async (app, { live, ready }) => {
  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'health.live',
        tags: ['health'],
        summary: 'The process is up',
        security: [],
        response: { 200: Health, ...(live ? errorResponses(503) : {}) },
      },
    },
    async () => {
      live?.();
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'health.ready',
        tags: ['health'],
        summary: 'The database answers',
        security: [],
        response: { 200: Ready, ...errorResponses(503) },
      },
    },
    async (request) => {
      try {
        return { status: 'ok' as const, database: await ready() };
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        throw errors.unavailable('The database is not reachable.', 5, 'database_unavailable');
      }
    },
  );
};
