import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { fromSchema, nasty } from './schema-arbitrary.js';

type Parameter = { name: string; in: 'path' | 'query'; schema?: Record<string, unknown> };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses?: Record<string, unknown>;
};
const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Record<string, unknown>> };
};
const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));

let t: TestApp;
let org: Org;

beforeAll(async () => {
  // Only a host that cannot exist is allowed, so CI edit never leaves the machine.
  t = await TestApp.start({ ciGitHosts: 'git.invalid=git' });
  org = await t.createOrg('fuzz-org');
});
afterAll(() => t?.close());

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

describe('every operation of openapi.json, with values shaped by its schemas and values no schema allows', () => {
  it('has operations to fuzz', () => expect(operations.length).toBeGreaterThan(30));

  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))(
    '%s: never a 5xx, every non-2xx (but a documented redirect) the error object',
    async (_name, { path, method, op }) => {
      const params = op.parameters ?? [];
      const pathArb = fc.record(
        Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, fc.oneof(fromSchema(p.schema, doc), fc.uuid(), nasty)])),
      );
      const queryArb = fc.record(Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, fromSchema(p.schema, doc)])), {
        requiredKeys: [],
      });
      const bodySchema = op.requestBody?.content['application/json']?.schema;
      const bodyArb = bodySchema ? fromSchema(bodySchema, doc) : fc.constant(undefined);
      await fc.assert(
        fc.asyncProperty(pathArb, queryArb, bodyArb, async (p, q, b) => {
          let url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(text(p[name])).slice(0, 2000));
          const query = Object.entries(q).map(([k, v]) => `${k}=${encodeURIComponent(text(v)).slice(0, 4000)}`);
          if (query.length > 0) url += `?${query.join('&')}`;
          // A host agent's long poll would wait up to its waitMs: the fuzz does not wait.
          const body = op.operationId === 'computers.agentClaim' && b !== null && typeof b === 'object' && !Array.isArray(b) ? { ...b, waitMs: 0 } : b;
          const res = await t.request(method as 'GET', url, { key: org.ownerKey, ...(body === undefined ? {} : { body }) });
          expect(res.status, `${method} ${url} -> ${res.raw.slice(0, 300)}`).toBeLessThan(500);
          // A redirect the document names (the package download) is an answer, not an error.
          const documentedRedirect = res.status < 400 && op.responses?.[String(res.status)] !== undefined;
          if (res.status >= 300 && !documentedRedirect) {
            expectErrorObject(res, res.status);
          }
        }),
        { numRuns: 25, seed: 20261124 },
      );
    },
    120_000,
  );
});
