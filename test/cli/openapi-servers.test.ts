import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/agent-process.js';
import { runCli, startServer, type Server } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';

// The specification's placeholders ({base_url}, {app_url}) are not what a reader of the README,
// of `orgctl openapi` or of /docs should see: the service names its own addresses.

const placeholder = /\{(base_url|app_url)\}/;
let server: Server;
let appPort: number;

beforeAll(async () => {
  appPort = await freePort();
  server = await startServer({ ...(await installation()), APP_PORT: String(appPort) });
}, 120_000);
afterAll(() => server?.stop());

describe('the addresses of the service', () => {
  it('/docs lists the service by its own URL, and the application address beside it', async () => {
    const doc = (await (await fetch(`${server.url}/docs/json`)).json()) as { servers: { url: string; description: string }[] };
    expect(doc.servers).toEqual([
      { url: server.url, description: 'This orgctl service' },
      { url: `http://127.0.0.1:${appPort}`, description: 'Its application address (readiness reports, the web app)' },
    ]);
    expect(JSON.stringify(doc)).not.toMatch(placeholder);
  });

  it('orgctl openapi, the README and docs/ carry no {base_url} or {app_url}', async () => {
    const out = await runCli(['openapi'], {});
    expect(out.code).toBe(0);
    expect(out.stdout).not.toMatch(placeholder);
    const root = new URL('../../', import.meta.url);
    const pages = [
      'README.md',
      ...readdirSync(new URL('docs/', root))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    expect(pages.filter((p) => placeholder.test(readFileSync(new URL(p, root), 'utf8')))).toEqual([]);
  });
});
