import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A TEST DOUBLE of the few GitHub REST endpoints the forge checks read (github.com cannot be
 * reached from tests). Each route answers from `routes` (path without query -> [status, body]);
 * anything else is 404. It records the paths asked for.
 */
export class ForgeDouble {
  readonly asked: string[] = [];
  private constructor(
    private readonly server: Server,
    readonly routes: Map<string, [number, unknown]>,
  ) {}

  static async start(routes: Record<string, [number, unknown]>): Promise<ForgeDouble> {
    const map = new Map(Object.entries(routes));
    const server = createServer((req, res) => {
      const p = new URL(req.url ?? '/', 'http://x').pathname;
      double.asked.push(p);
      const [status, body] = map.get(p) ?? [404, { message: 'Not Found' }];
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    const double = new ForgeDouble(server, map);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return double;
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The repository URL the evaluator maps to this double's host. */
  readonly repoUrl = 'https://127.0.0.1/acme/app.git';

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
const MIN = 60_000;
const DAY = 86_400_000;

/** A repository whose forge shows a healthy project: protected main, fast CI, weekly releases, bot reviews, labels. */
export const healthyForge = (): Record<string, [number, unknown]> => ({
  '/repos/acme/app': [200, { default_branch: 'main', security_and_analysis: { secret_scanning: { status: 'enabled' } } }],
  '/repos/acme/app/rules/branches/main': [200, [{ type: 'pull_request', parameters: { required_approving_review_count: 1 } }]],
  '/repos/acme/app/pulls': [200, [{ number: 7, merged_at: iso(DAY), head: { sha: 'abc' }, user: { login: 'dependabot[bot]' } }]],
  '/repos/acme/app/commits/abc/check-runs': [
    200,
    {
      total_count: 2,
      check_runs: [
        { started_at: iso(10 * MIN), completed_at: iso(6 * MIN) },
        { started_at: iso(9 * MIN), completed_at: iso(5 * MIN) },
      ],
    },
  ],
  '/repos/acme/app/releases': [200, Array.from({ length: 9 }, (_, i) => ({ published_at: iso((i + 1) * 3 * DAY), created_at: iso((i + 1) * 3 * DAY) }))],
  '/repos/acme/app/pulls/7/reviews': [200, [{ user: { login: 'coderabbitai[bot]', type: 'Bot' } }]],
  '/repos/acme/app/issues/7/comments': [200, []],
  '/repos/acme/app/labels': [200, [{ name: 'priority: high' }, { name: 'type: bug' }, { name: 'area: api' }]],
  '/repos/acme/app/issues': [200, [{ title: 'Login fails on Safari', labels: [{ name: 'type: bug' }], updated_at: iso(DAY) }]],
  '/repos/acme/app/code-scanning/analyses': [200, [{ id: 1 }]],
});

/** The same project with none of it: unprotected, slow CI, no releases lately, no bot, no labels. */
export const neglectedForge = (): Record<string, [number, unknown]> => ({
  '/repos/acme/app': [200, { default_branch: 'main', security_and_analysis: { secret_scanning: { status: 'disabled' } } }],
  '/repos/acme/app/rules/branches/main': [200, []],
  '/repos/acme/app/pulls': [200, [{ number: 7, merged_at: iso(DAY), head: { sha: 'abc' }, user: { login: 'someone' } }]],
  '/repos/acme/app/commits/abc/check-runs': [200, { total_count: 1, check_runs: [{ started_at: iso(60 * MIN), completed_at: iso(20 * MIN) }] }],
  '/repos/acme/app/releases': [200, [{ published_at: iso(100 * DAY), created_at: iso(100 * DAY) }]],
  '/repos/acme/app/pulls/7/reviews': [200, [{ user: { login: 'someone', type: 'User' } }]],
  '/repos/acme/app/issues/7/comments': [200, []],
  '/repos/acme/app/labels': [200, [{ name: 'wontfix' }]],
  '/repos/acme/app/issues': [200, [{ title: 'bug', labels: [], updated_at: iso(400 * DAY) }]],
  '/repos/acme/app/code-scanning/analyses': [200, []],
});
