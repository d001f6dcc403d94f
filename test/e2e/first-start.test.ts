import { createServer, type Server as NetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli, startServer } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';

const occupy = () =>
  new Promise<NetServer>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => resolve(s));
  });

describe('the first start of orgctl serve', { timeout: 120_000 }, () => {
  it('with its port taken, says so in one line, exits 1, and creates nothing: the next start is still the first', async () => {
    // An empty data directory, as the README's quick start has it: this start also migrates.
    const env = await installation({ empty: true });
    const busy = await occupy();
    try {
      const port = (busy.address() as AddressInfo).port;
      const res = await runCli(['serve'], { ...env, PORT: String(port) });
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe(
        `Cannot listen on 127.0.0.1:${port}: the port is in use by another process. Stop it, or choose another port with PORT=${port + 1}.`,
      );
      expect(res.stdout).not.toContain('ock_');
    } finally {
      busy.close();
    }
    const server = await startServer(env);
    try {
      expect(server.output()).toMatch(/First start: created organization "default"/);
      expect(server.output()).toMatch(/Owner API key[^:]*: ock_/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('a later start names an owner who has no working key, and how to make one', async () => {
    const env = await installation();
    expect((await runCli(['init', '--org', 'acme', '--owner-email', 'first@acme.test'], env)).code).toBe(0);
    expect((await runCli(['users', 'add', '--email', 'second@acme.test', '--role', 'owner'], env)).code).toBe(0);
    const server = await startServer(env);
    try {
      const out = server.output();
      expect(out).toContain('The owner second@acme.test of organization "acme" has no working API key.');
      expect(out).toContain('orgctl keys create --email second@acme.test');
      // The owner with a key is not named as keyless (the web app's setup line may name them).
      expect(out).not.toContain('The owner first@acme.test');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
