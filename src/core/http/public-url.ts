import type { FastifyInstance } from 'fastify';
import { listenerOrigin } from './listener-origin.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The service's public URL for links in a response: PUBLIC_URL, else the address the request names. */
    readonly publicUrl: string;
    /**
     * The public URL for links the service stores for others to read (a recorded pull request):
     * PUBLIC_URL, else the listener's own address, never the caller-written Host header.
     */
    readonly storedLinkUrl: string;
    /**
     * Where the web app's pages are, for links the service hands out (invitations): PUBLIC_URL's
     * origin, or the address this request reached, on APP_PORT when the application has its own listener.
     */
    readonly appUrl: string;
  }
}

/** Decorates every request with the addresses responses link to, so no service is handed one to build links with. */
export function registerPublicUrl(app: FastifyInstance, options: { publicUrl?: string; appPort?: number }): void {
  const { publicUrl, appPort } = options;
  app.decorateRequest('publicUrl', {
    getter() {
      return (publicUrl ?? `${this.protocol}://${this.host}`).replace(/\/+$/, '');
    },
  });
  app.decorateRequest('storedLinkUrl', {
    getter() {
      return (publicUrl ?? listenerOrigin(this)).replace(/\/+$/, '');
    },
  });
  app.decorateRequest('appUrl', {
    getter() {
      if (publicUrl !== undefined) return new URL(publicUrl).origin;
      const origin = new URL(listenerOrigin(this));
      if (appPort !== undefined && appPort !== 0) origin.port = String(appPort);
      return origin.origin;
    },
  });
}
