import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PAGE_HEADERS } from './security-headers.js';

/** Paths that belong to the API and service, whose unknown URLs keep answering the JSON error object. */
const NOT_PAGES = /^\/(api|v1|docs|openapi\.json|healthz|readyz)(\/|$)/;

export type PageFallback = (request: FastifyRequest, reply: FastifyReply) => boolean;

/**
 * Serves the web app built into `root` (dist/web) at `/`, and returns the fallback that answers a
 * deep link (/settings/members, opened directly or reloaded) with index.html: only a GET of a
 * non-API path whose client accepts HTML, so API 404s stay the error object. Without a build
 * (tests that run from the sources) nothing is served and the fallback declines.
 */
export async function registerWebPages(app: FastifyInstance, root: string | undefined): Promise<PageFallback> {
  if (root === undefined || !existsSync(path.join(root, 'index.html'))) return () => false;
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // One route per built file instead of a catch-all, so every other path reaches the not-found handler.
    wildcard: false,
    // Ours, set in setHeaders: hashed assets kept for a year, index.html revalidated on every load.
    cacheControl: false,
    setHeaders: (res, file) => {
      for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
      // File names under assets/ carry a content hash: they never change, so browsers keep them.
      res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const pathname = request.url.split('?')[0] ?? '/';
    if (NOT_PAGES.test(pathname) || !(request.headers.accept ?? '').includes('text/html')) return false;
    void reply.sendFile('index.html');
    return true;
  };
}
