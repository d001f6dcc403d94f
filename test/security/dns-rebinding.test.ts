import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import type { Resolver } from '../../src/core/net/network-guard.js';
import { discover, IssuerUnreachable } from '../../src/sso/oidc.js';
import { send } from '../../src/webhooks/send.js';
import { onCleanup } from '../helpers/cleanup.js';

/** A documentation address (RFC 5737): public for the guard, and nothing of ours listens there. */
const PUBLIC = '192.0.2.1';

/**
 * The rebinding name: its first answer is public, every later one loopback. The name is
 * `localhost`, so that code looking it up a second time through the system resolver, instead of
 * this one, gets a loopback address too.
 */
function rebinding(): Resolver & { lookups: number } {
  const resolver = Object.assign(
    async (): Promise<string[]> => {
      resolver.lookups++;
      return resolver.lookups === 1 ? [PUBLIC] : ['127.0.0.1'];
    },
    { lookups: 0 },
  );
  return resolver;
}

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

/** A local listener that counts the connections it gets (and ends them at once), on IPv4 and, where there is one, IPv6 loopback. */
async function localListener(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const accept = (socket: { destroy(): void }) => {
    connections++;
    socket.destroy();
  };
  const port = await listening(createTcpServer(accept));
  const v6 = createTcpServer(accept);
  await new Promise<void>((resolve) => v6.once('error', () => resolve()).listen(port, '::1', () => resolve()));
  if (v6.listening) onCleanup(() => new Promise<void>((resolve) => v6.close(() => resolve())));
  return { port, connections: () => connections };
}

describe('a name that answers a public address when checked and a loopback one after (DNS rebinding)', () => {
  it('cannot make a webhook delivery reach a local listener', async () => {
    const listener = await localListener();
    const resolve = rebinding();
    const result = await send(`http://localhost:${listener.port}/hook`, {}, '{}', { allowPrivateNetwork: false, resolve }, systemClock, 1000);
    expect(listener.connections()).toBe(0);
    expect(result.ok).toBe(false);
    expect(resolve.lookups).toBe(1);
    // The next delivery looks the name up again, and its loopback answer is refused.
    const next = await send(`http://localhost:${listener.port}/hook`, {}, '{}', { allowPrivateNetwork: false, resolve }, systemClock, 1000);
    expect(next).toMatchObject({ ok: false, statusCode: null, error: expect.stringContaining('private or internal address (127.0.0.1)') });
    expect(listener.connections()).toBe(0);
  });

  it('cannot make SSO discovery reach a local listener', { timeout: 20_000 }, async () => {
    const listener = await localListener();
    const resolve = rebinding();
    await expect(discover(`https://localhost:${listener.port}`, 'client', 'secret', { allowPrivate: false, resolve })).rejects.toBeInstanceOf(
      IssuerUnreachable,
    );
    expect(listener.connections()).toBe(0);
    expect(resolve.lookups).toBe(1);
  });
});

describe('the pinned connection keeps the name', () => {
  it('sends the webhook with the Host header of the URL, to the address the resolver gave', async () => {
    const hosts: string[] = [];
    const server = createTcpServer((socket) => {
      socket.once('data', (head) => {
        hosts.push(/^host: (.*)$/im.exec(head.toString('latin1'))?.[1]?.trim() ?? '');
        socket.end('HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n');
      });
    });
    const port = await listening(server);
    const result = await send(
      `http://hooks.example.test:${port}/hook`,
      {},
      '{}',
      { allowPrivateNetwork: true, resolve: async () => ['127.0.0.1'] },
      systemClock,
      2000,
    );
    expect(result).toMatchObject({ ok: true, statusCode: 204 });
    expect(hosts).toEqual([`hooks.example.test:${port}`]);
  });

  it('asks the identity provider for its certificate under the issuer name (TLS SNI)', async () => {
    const names: string[] = [];
    const server = createTlsServer({
      SNICallback: (name, callback) => {
        names.push(name);
        callback(new Error('no certificate here'));
      },
    });
    const port = await listening(server);
    await expect(
      discover(`https://idp.example.test:${port}`, 'client', 'secret', { allowPrivate: true, resolve: async () => ['127.0.0.1'] }),
    ).rejects.toBeInstanceOf(IssuerUnreachable);
    expect(names).toEqual(['idp.example.test']);
  });
});
