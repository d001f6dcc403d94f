import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { systemClock, type Timer } from '../clock.js';
import type { Db } from '../db/db.js';
import { errorResponses } from './error-schema.js';
import { errors } from './errors.js';

const Health = Type.Object({ status: Type.Literal('ok') });
const Ready = Type.Object({ status: Type.Literal('ok'), database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]) });
const READY_TIMEOUT_MS = 2000;

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      schema: { operationId: 'health.live', tags: ['health'], summary: 'The process is up', security: [], response: { 200: Health } },
    },
    async () => ({ status: 'ok' as const }),
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
      // The database answers in real time, whatever the service's clock says: the system clock's timer.
      let timer: Timer | undefined;
      try {
        await Promise.race([
          db.query('SELECT 1'),
          new Promise((_, reject) => {
            timer = systemClock.timeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
          }),
        ]);
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        throw errors.unavailable('The database is not reachable.', 5, 'database_unavailable');
      } finally {
        timer?.cancel();
      }
      return { status: 'ok' as const, database: db.engine };
    },
  );
};
