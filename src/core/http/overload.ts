import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { errors } from './errors.js';

/**
 * When the event loop lags past `maxEventLoopDelayMs`, requests are answered 503 with
 * Retry-After at once instead of queueing behind the work that stalls it; the health routes
 * still answer (they are cheap, and say whether the process lives).
 */
export async function registerOverloadShedding(app: FastifyInstance, options: { maxEventLoopDelayMs: number }): Promise<void> {
  if (options.maxEventLoopDelayMs <= 0) return;
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    // The mean delay is taken over each sample: twice per threshold, at most once a second.
    sampleInterval: Math.min(1000, Math.max(10, Math.floor(options.maxEventLoopDelayMs / 2))),
    exposeStatusRoute: false,
    pressureHandler: (request) => {
      if (request.routeOptions.config?.access === 'public') return undefined;
      return Promise.reject(errors.unavailable('The service is overloaded right now. Try again shortly.', 2, 'overloaded'));
    },
  });
}
