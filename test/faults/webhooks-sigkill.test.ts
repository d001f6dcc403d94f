import { describe, expect, it } from 'vitest';
import { startServer, type Server } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';
import { waitFor } from '../helpers/wait.js';
import { Receiver } from '../webhooks/receiver.js';
import { onCleanup } from '../helpers/cleanup.js';

const REPORTS = 12;

describe('orgctl serve killed with SIGKILL while it delivers webhooks', () => {
  it('after a restart every event is delivered at least once, and no event id is ever two different events', { timeout: 120_000 }, async () => {
    const receiver = await Receiver.start();
    onCleanup(() => receiver.close());
    // Held leases expire quickly, and the queue is polled often, so the test takes seconds.
    const env = { ...(await installation()), CI_ALLOW_PRIVATE_NETWORK: 'true', WEBHOOKS_LEASE_MS: '1500', WEBHOOKS_TICK_MS: '50' };
    let server: Server = await startServer(env);
    // After the test and before its data directory is removed (installation's cleanup): the
    // restarted server still writes to it.
    onCleanup(async () => void (await server.stop()));
    const key = /Owner API key[^:]*: (ock_\w+)/.exec(server.output())![1]!;
    const api = async <T>(method: string, url: string, body?: unknown) => {
      const res = await fetch(`${server.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as T };
    };
    const endpoint = await api<{ id: string }>('POST', '/api/v0/organization/webhooks', { url: receiver.url, eventTypes: ['readiness.report_created'] });
    expect(endpoint.status).toBe(201);

    // The receiver holds every request unanswered: the deliveries are in flight when the process dies.
    receiver.answer = () => null;
    const reportIds: string[] = [];
    for (let i = 0; i < REPORTS; i++) {
      const res = await api<{ reportId: string }>('POST', '/api/organization/maturity-level-reports', {
        repoUrl: `https://github.com/acme/repo-${i}`,
        apps: {},
        report: { lint_config: { numerator: 1, denominator: 1, rationale: 'r' } },
      });
      expect(res.status).toBe(201);
      reportIds.push(res.body.reportId);
    }
    await waitFor(async () => (receiver.received.length >= 4 ? true : undefined), 30_000, 'deliveries in flight', 20);
    server.process.kill('SIGKILL');
    await new Promise((resolve) => server.process.once('exit', resolve));
    const beforeRestart = receiver.received.length;

    receiver.answer = () => 200;
    server = await startServer(env);
    await waitFor(
      async () => {
        const reports = new Set(receiver.received.map((r) => (JSON.parse(r.body) as { data: { reportId: string } }).data.reportId));
        return reportIds.every((id) => reports.has(id)) ? true : undefined;
      },
      60_000,
      'every event delivered after the restart',
      50,
    );
    expect(receiver.received.length).toBeGreaterThan(beforeRestart);

    // One webhook-id, one body: redeliveries repeat the event exactly; and each report is one event id.
    const bodyOf = new Map<string, string>();
    const idOfReport = new Map<string, string>();
    for (const r of receiver.received) {
      const id = r.headers['webhook-id'] as string;
      expect(bodyOf.get(id) ?? r.body).toBe(r.body);
      bodyOf.set(id, r.body);
      const reportId = (JSON.parse(r.body) as { data: { reportId: string } }).data.reportId;
      expect(idOfReport.get(reportId) ?? id).toBe(id);
      idOfReport.set(reportId, id);
    }
    expect(bodyOf.size).toBe(REPORTS);
  });
});
