import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A TEST DOUBLE of the GitHub REST API (github.com cannot be reached from tests): a local
 * node:http server that answers the few endpoints CI automation uses, keeps a tiny in-memory
 * repository per owner/repo, and records every request (method, path, authorization, body)
 * so a test can assert the exact sequence. It mounts under `prefix` ('/api/v3' plays a GitHub
 * Enterprise Server).
 */
export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | undefined;
}

interface FakeRepo {
  defaultBranch: string;
  branches: Map<string, string>;
  files: Map<string, string>;
  pulls: number;
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const blobSha = (content: string) => {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
};

export class GitHubApiTestDouble {
  readonly requests: RecordedRequest[] = [];
  private readonly repos = new Map<string, FakeRepo>();
  private readonly failures: { method: string; path: RegExp; status: number; message: string }[] = [];
  private counter = 0;
  private constructor(
    private readonly server: Server,
    readonly prefix: string,
    readonly webHost: string,
  ) {}

  /** `webHost`: the host of the web pages the double's answers link (a pull request's html_url), as the GitHub it plays serves them. */
  static async start(prefix = '/api/v3', webHost = 'ghe.acme.test'): Promise<GitHubApiTestDouble> {
    const server = createServer();
    const double = new GitHubApiTestDouble(server, prefix, webHost);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void double.handle(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return double;
  }

  /** The base URL to configure as GITHUB_API_URL. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${this.prefix}`;
  }

  /** The sha of a repository's base commit and its tree. */
  static readonly BASE_COMMIT = sha1('base commit');
  static readonly BASE_TREE = sha1('base tree');

  addRepo(fullName: string, files: Record<string, string>, defaultBranch = 'main'): void {
    this.repos.set(fullName, {
      defaultBranch,
      branches: new Map([[defaultBranch, GitHubApiTestDouble.BASE_COMMIT]]),
      files: new Map(Object.entries(files)),
      pulls: this.repos.get(fullName)?.pulls ?? 41,
    });
  }

  /** Makes the next matching request fail with GitHub's error shape. */
  failOn(method: string, path: RegExp, status: number, message: string): void {
    this.failures.push({ method, path, status, message });
  }

  branchesOf(fullName: string): string[] {
    return [...(this.repos.get(fullName)?.branches.keys() ?? [])].sort();
  }

  /** "METHOD /path" of every request, without the prefix. */
  sequence(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path.slice(this.prefix.length)}`);
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://double');
    const path = decodeURIComponent(url.pathname);
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    const method = req.method ?? 'GET';
    this.requests.push({ method, path, authorization: req.headers.authorization, body });
    const send = (status: number, json?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(json === undefined ? '' : JSON.stringify(json));
    };
    const fail = this.failures.findIndex((f) => f.method === method && f.path.test(path));
    if (fail !== -1) {
      const [f] = this.failures.splice(fail, 1);
      return send(f!.status, { message: f!.message, documentation_url: 'https://docs.github.com/rest' });
    }
    if (!path.startsWith(`${this.prefix}/repos/`)) return send(404, { message: 'Not Found' });
    const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path.slice(this.prefix.length));
    const repo = m && this.repos.get(`${m[1]}/${m[2]}`);
    if (!m || !repo) return send(404, { message: 'Not Found' });
    const rest = m[3] ?? '';
    const next = () => sha1(`object ${++this.counter}`);

    if (method === 'GET' && rest === '') return send(200, { full_name: `${m[1]}/${m[2]}`, default_branch: repo.defaultBranch });
    let r = /^\/git\/ref\/heads\/(.+)$/.exec(rest);
    if (method === 'GET' && r) {
      const sha = repo.branches.get(r[1]!);
      return sha ? send(200, { ref: `refs/heads/${r[1]}`, object: { sha, type: 'commit' } }) : send(404, { message: 'Not Found' });
    }
    r = /^\/contents\/(.+)$/.exec(rest);
    if (method === 'GET' && r) {
      const content = repo.files.get(r[1]!);
      if (content === undefined) return send(404, { message: 'Not Found' });
      return send(200, { type: 'file', path: r[1], sha: blobSha(content), encoding: 'base64', content: Buffer.from(content).toString('base64') });
    }
    r = /^\/git\/commits\/([0-9a-f]+)$/.exec(rest);
    if (method === 'GET' && r) return send(200, { sha: r[1], tree: { sha: GitHubApiTestDouble.BASE_TREE } });
    if (method === 'POST' && rest === '/git/trees') return send(201, { sha: next() });
    if (method === 'POST' && rest === '/git/commits') return send(201, { sha: next() });
    if (method === 'POST' && rest === '/git/refs') {
      const name = String(body?.ref).replace(/^refs\/heads\//, '');
      if (repo.branches.has(name)) return send(422, { message: 'Reference already exists' });
      repo.branches.set(name, String(body?.sha));
      return send(201, { ref: body?.ref, object: { sha: body?.sha, type: 'commit' } });
    }
    r = /^\/git\/refs\/heads\/(.+)$/.exec(rest);
    if (method === 'DELETE' && r) {
      repo.branches.delete(r[1]!);
      return send(204);
    }
    // No pull request yet: the forge checks that list them (update pull requests, merged ones) see none.
    if (method === 'GET' && rest === '/pulls') return send(200, []);
    if (method === 'POST' && rest === '/pulls') {
      const number = ++repo.pulls;
      return send(201, { number, html_url: `https://${this.webHost}/${m[1]}/${m[2]}/pull/${number}`, head: { ref: body?.head }, base: { ref: body?.base } });
    }
    return send(404, { message: 'Not Found' });
  }
}
