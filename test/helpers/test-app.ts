import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { ERROR_CODES } from '../../src/core/http/error-codes.js';
import type { Role } from '../../src/core/identity/roles.js';
import type { OperatorIdentity } from '../../src/core/identity/operator.js';
import type { IdentityService } from '../../src/core/identity/service.js';
import { buildServices, type ServiceDeps, type Services } from '../../src/services.js';
import { createTestDb, type TestDb } from './test-db.js';

/** What a test may choose of the app's dependencies (its database is always its own). */
export type TestDeps = Omit<ServiceDeps, 'db'> & { webRoot?: string };

export interface Org {
  orgId: string;
  ownerId: string;
  ownerKey: string;
}

export interface Response<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  raw: string;
}

/** The app of one test file: its own database, the HTTP interface through inject, and fixtures. */
export class TestApp {
  private constructor(
    readonly app: FastifyInstance,
    readonly testDb: TestDb,
    readonly services: Services,
    private readonly deps: TestDeps,
  ) {}

  /**
   * `extend` may add routes before the app is sealed (a test's own failing route, say). A test that
   * moves time passes `deps.clock` (a TestClock); the fixtures and other processes share it. The
   * services wait by it too: a held long poll then answers only when woken or when the test
   * advances the clock past its wait (docs/architecture.md, Time).
   */
  static async start(overrides: Partial<Config> = {}, deps: TestDeps = {}, extend?: (app: FastifyInstance) => void): Promise<TestApp> {
    const testDb = await createTestDb();
    // Shedding by event-loop delay is off unless a test asks for it: forks of the suite share two
    // cores, and a process starved of CPU for a second would answer 503 where a test expects 200.
    const config = loadConfig({}, { logLevel: 'silent', overloadMaxEventLoopDelayMs: 0, ...overrides });
    const services = buildServices(config, { db: testDb.db, ...deps });
    const app = await buildApp(config, { services, webRoot: deps.webRoot });
    extend?.(app);
    await app.ready();
    return new TestApp(app, testDb, services, deps);
  }

  /** The app's own identity service, for fixtures (a revocation through it reaches the app's credential cache). */
  get identity(): IdentityService {
    return this.services.identity;
  }

  /** The app's operator identity (what the CLI's commands use), for fixtures made with no principal. */
  get operatorIdentity(): OperatorIdentity {
    return this.services.operatorIdentity;
  }

  get db() {
    return this.testDb.db;
  }

  /** Another process on the same database: its own app (and so its own caches), built with `overrides`. The caller closes it. */
  async otherProcess(overrides: Partial<Config> = {}): Promise<FastifyInstance> {
    const app = await buildApp(loadConfig({}, { logLevel: 'silent', overloadMaxEventLoopDelayMs: 0, ...overrides }), { db: this.db, clock: this.deps.clock });
    await app.ready();
    return app;
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.testDb.drop();
  }

  async createOrg(name = 'acme', ownerEmail = `owner@${name}.test`): Promise<Org> {
    const created = await this.operatorIdentity.createOrganization({ name, ownerEmail });
    return { orgId: created.orgId, ownerId: created.userId, ownerKey: created.apiKey };
  }

  /** A user of `org` with `role`, and a key of theirs. */
  async addUser(org: Org, role: Role, email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`) {
    const user = await this.operatorIdentity.addUser({ orgId: org.orgId, email, role });
    const { secret } = await this.operatorIdentity.createKey(org.orgId, { id: user.id });
    return { id: user.id, email: user.email, key: secret };
  }

  async request<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS',
    url: string,
    options: { key?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
  ): Promise<Response<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    let payload: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.app.inject({ method, url, headers, payload });
    let body: unknown = res.body;
    try {
      body = res.body === '' ? undefined : JSON.parse(res.body);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.statusCode, body: body as T, headers: res.headers, raw: res.body };
  }
}

/** Asserts the shape of the error object and returns it. */
export function expectErrorObject(
  res: Response,
  status: number,
): { detail: string; status: number; title: string; metadata?: Record<string, unknown>; requestId: string } {
  const body = res.body as Record<string, unknown>;
  if (res.status !== status) throw new Error(`expected status ${status}, got ${res.status}: ${res.raw}`);
  const problems: string[] = [];
  if (typeof body?.detail !== 'string' || body.detail.length === 0) problems.push('detail');
  if (body?.status !== status) problems.push('status');
  if (typeof body?.title !== 'string' || body.title.length === 0) problems.push('title');
  if (typeof body?.requestId !== 'string' || body.requestId !== res.headers['x-request-id']) problems.push('requestId');
  // Every error names a catalogued code whose status it has (a framework's other 4xx may fall under malformed_request).
  const code = (body?.metadata as { code?: string } | undefined)?.code;
  const entry = code === undefined ? undefined : (ERROR_CODES as Record<string, { status: number }>)[code];
  if (!entry || (entry.status !== status && code !== 'malformed_request')) problems.push(`metadata.code (${code})`);
  if (problems.length) throw new Error(`not an error object (${problems.join(', ')}): ${res.raw}`);
  return body as never;
}
