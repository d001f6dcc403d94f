import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { systemClock } from '../clock.js';
import { errors } from './errors.js';

/** The histogram's resolution: its mean counts this much even on an idle loop, so it is taken off. */
const RESOLUTION_MS = 10;

/**
 * When the event loop lags past `maxEventLoopDelayMs`, requests are answered 503 with
 * Retry-After at once instead of queueing behind the work that stalls it; the health routes
 * still answer (they are cheap, and say whether the process lives).
 *
 * The delay is sampled here rather than by @fastify/under-pressure, whose timer also read the
 * process's memory through a file on every sample and threw EMFILE out of the timer, ending the
 * process, once connections had taken every file descriptor. Nothing in this sampler can throw.
 */
export async function registerOverloadShedding(app: FastifyInstance, options: { maxEventLoopDelayMs: number }): Promise<void> {
  if (options.maxEventLoopDelayMs <= 0) return;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let delayMs = 0;
  // The mean delay is taken over each sample: twice per threshold, at most once a second.
  const sampleMs = Math.min(1000, Math.max(RESOLUTION_MS, Math.floor(options.maxEventLoopDelayMs / 2)));
  // The event loop's delay is measured in real time, whatever the service's clock says: the system clock's timer.
  const timer = systemClock.interval(
    () => {
      // No sample in a whole interval means the loop was blocked all along.
      delayMs = Number.isNaN(histogram.mean) ? Infinity : Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS);
      histogram.reset();
    },
    sampleMs,
    { keepAlive: false },
  );
  app.addHook('onClose', async () => {
    timer.cancel();
    histogram.disable();
  });
  app.addHook('onRequest', async (request) => {
    if (delayMs <= options.maxEventLoopDelayMs || request.routeOptions.config?.access === 'public') return;
    throw errors.unavailable('The service is overloaded right now. Try again shortly.', 2, 'overloaded');
  });
}
