import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/db.js';
import { errors } from './errors.js';
import { ANONYMOUS_PER_MINUTE, PER_MINUTE, SIGN_IN_PER_MINUTE, type Plan, type RateClass } from './rate-limit-plans.js';
import { PostgresRateStore } from './rate-limit-store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The budget this route spends (rate-limit-plans.ts); by default read for GET, write otherwise. */
    rateClass?: RateClass | 'sign-in' | 'none';
  }
  interface FastifyRequest {
    /**
     * A credential that is no principal (a SCIM token), set by the routes that authenticate it:
     * it spends budgets of its own, by its organization's plan, as a principal does.
     */
    rateSubject: RateSubject | null;
  }
}

interface RateSubject {
  id: string;
  orgId: string;
  /** What the credential is called in the 429's detail ("SCIM token"). */
  label: string;
}

const WINDOW_MS = 60_000;
const PLAN_TTL_MS = 5_000;

const classOf = (request: FastifyRequest): RateClass | 'sign-in' | 'none' => {
  const declared = request.routeOptions.config?.rateClass;
  if (declared) return declared;
  const access = request.routeOptions.config?.access;
  if (!request.rateSubject && (access === undefined || access === 'public')) return 'none';
  return request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
};

/** Who spends the budget: the principal, else a credential of another kind, else nobody (the address). */
const subjectOf = (request: FastifyRequest): { key: string; orgId: string; label: string } | undefined => {
  if (request.principal) return { key: `p:${request.principal.id}`, orgId: request.principal.orgId, label: 'principal' };
  if (request.rateSubject) return { key: `c:${request.rateSubject.id}`, orgId: request.rateSubject.orgId, label: request.rateSubject.label };
  return undefined;
};

/** Counted per address: calls without a credential, and the sign-in steps whoever makes them. */
const byAddress = (request: FastifyRequest): boolean => !subjectOf(request) || classOf(request) === 'sign-in';

/**
 * Per-principal request rates by plan and class, with @fastify/rate-limit: counted in the
 * database on PostgreSQL (so several `orgctl serve` processes share them), in memory on the
 * embedded engine (one process per data directory). Every limited response carries
 * `RateLimit-Policy` and `RateLimit` (IETF httpapi draft); past the limit, 429 with Retry-After
 * and the error object. A credential that is no principal (a SCIM token, `rateSubject`) is
 * counted the same way, by its own id; routes without a credential (health) are not limited.
 */
export async function registerRateLimits(app: FastifyInstance, db: Db, options: { enabled: boolean }): Promise<void> {
  app.decorateRequest('rateSubject', null);
  if (!options.enabled) return;
  const plans = new Map<string, { plan: Plan; until: number }>();
  const planOf = async (orgId: string): Promise<Plan> => {
    const hit = plans.get(orgId);
    if (hit && hit.until > Date.now()) return hit.plan;
    const [row] = await db.query<{ plan: Plan }>(`SELECT plan FROM organizations WHERE id = $1`, [orgId]);
    const plan = row?.plan ?? 'free';
    plans.set(orgId, { plan, until: Date.now() + PLAN_TTL_MS });
    return plan;
  };
  await app.register(rateLimit, {
    global: true,
    // After the access hook, so the principal is known; before the body is validated and handled.
    hook: 'preValidation',
    timeWindow: WINDOW_MS,
    enableDraftSpec: true,
    ...(db.engine === 'postgres' ? { store: PostgresRateStore.for(db) } : {}),
    allowList: (request) => classOf(request) === 'none',
    keyGenerator: (request) => `${byAddress(request) ? `a:${request.ip}` : subjectOf(request)!.key}:${classOf(request)}`,
    max: async (request) => {
      if (classOf(request) === 'sign-in') return SIGN_IN_PER_MINUTE;
      return byAddress(request) ? ANONYMOUS_PER_MINUTE : PER_MINUTE[await planOf(subjectOf(request)!.orgId)][classOf(request) as RateClass];
    },
    errorResponseBuilder: (request, context) =>
      errors.tooManyRequests(
        `Rate limit reached: ${context.max} ${classOf(request)} requests a minute for this ${byAddress(request) ? 'address' : subjectOf(request)!.label}. Try again in ${context.after}.`,
        Math.max(1, Math.ceil(context.ttl / 1000)),
      ),
  });
  // The plugin's draft headers (limit, remaining, reset) become the current draft's two fields.
  app.addHook('onSend', async (request, reply) => {
    const limit = reply.getHeader('ratelimit-limit');
    if (limit === undefined) return;
    const name = classOf(request);
    const remaining = reply.getHeader('ratelimit-remaining');
    const reset = reply.getHeader('ratelimit-reset');
    reply.removeHeader('ratelimit-limit');
    reply.removeHeader('ratelimit-remaining');
    reply.removeHeader('ratelimit-reset');
    reply.header('ratelimit-policy', `"${name}";q=${limit};w=${WINDOW_MS / 1000}`);
    reply.header('ratelimit', `"${name}";r=${remaining ?? 0};t=${reset ?? 0}`);
  });
}
