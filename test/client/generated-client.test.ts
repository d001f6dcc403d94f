import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { paths } from '../../src/client/openapi-types.js';

type Json<P extends keyof paths, M extends 'get' | 'post' | 'put', S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

describe('the generated API client', () => {
  it('is current: src/client/openapi-types.ts is what openapi.json generates (run `npm run openapi`)', () => {
    const script = fileURLToPath(new URL('../../scripts/generate-client.mjs', import.meta.url));
    expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  // Checked by `npm run typecheck`: a change of these shapes in openapi.json fails the build of the tests.
  it('types the responses the CLI, the host agent and the hooks telemetry rely on', () => {
    expectTypeOf<Json<'/api/v0/me', 'get', 200>>().toMatchTypeOf<{
      role: 'owner' | 'manager' | 'member' | 'guest';
      email: string | null;
      organization: { id: string; name: string };
    }>();
    expectTypeOf<Json<'/api/v1/analytics/users', 'get', 200>['meta']>().toMatchTypeOf<{ has_more: boolean; next_cursor: string | null }>();
    expectTypeOf<Json<'/api/v0/computers/{computerId}/agent/claim', 'post', 200>['job']>().toMatchTypeOf<{
      stepId: string;
      leaseToken: string;
      heartbeatIntervalMs: number;
    } | null>();
    expectTypeOf<Json<'/api/v0/api-keys', 'post', 201>>().toMatchTypeOf<{ id: string; key: string; prefix: string; expiresAt: number | null }>();
    expectTypeOf<Json<'/api/organization/agent-readiness-summary', 'get', 200>['organization']['level']>().toEqualTypeOf<number | null>();
    expectTypeOf<paths['/api/v1/analytics/tokens']['get']['parameters']['query']>().toEqualTypeOf<{
      startDate: string;
      endDate: string;
      team_id?: string;
      repository?: string;
      group_by?: 'model' | 'team' | 'repository';
    }>();
  });
});
