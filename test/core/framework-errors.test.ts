import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from '../helpers/test-app.js';

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await TestApp.start();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t?.close());

/** Sends raw bytes and reads until the server closes the connection (or 5 s pass). */
function raw(request: string): Promise<{ status: number; headers: string; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no close within 5 s; got: ${out.slice(0, 200)}`)), 5000);
    socket.on('data', (d) => (out += d));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', body = ''] = out.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) as Record<string, unknown> });
    });
    socket.write(request);
  });
}

const expectErrorObject = (res: Awaited<ReturnType<typeof raw>>, status: number) => {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({
    status,
    title: expect.any(String),
    detail: expect.any(String),
    metadata: { code: expect.any(String) },
    requestId: expect.any(String),
  });
  expect(res.headers).toContain(`x-request-id: ${String(res.body.requestId).toLowerCase()}`);
};

describe('errors raised before a route runs are the error object too', () => {
  it('414 for a path parameter past its length', async () => {
    expectErrorObject(await raw(`GET /api/v0/computers/${'a'.repeat(200)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), 414);
  });

  it('400 for a URL with broken percent-encoding', async () => {
    expectErrorObject(await raw('GET /api/v0/computers/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 400);
  });

  it('431 for an oversized query string, and the connection is closed without the client asking', async () => {
    expectErrorObject(await raw(`GET /healthz?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`), 431);
  });

  it('400 for a method HTTP does not know', async () => {
    expectErrorObject(await raw('FOO /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 400);
  });
});
