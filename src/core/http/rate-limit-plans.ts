/** The plans an organization can be on, and the requests per minute each allows a principal per class. */
export const PLANS = ['free', 'team', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/**
 * Which budget a request spends: reads (GET), writes (other methods), telemetry ingestion
 * (native events and OTLP) and analytics reads. A route names its class in `config.rateClass`;
 * otherwise its method decides between read and write.
 */
export const RATE_CLASSES = ['read', 'write', 'ingest', 'analytics'] as const;
export type RateClass = (typeof RATE_CLASSES)[number];

export const PER_MINUTE: Record<Plan, Record<RateClass, number>> = {
  free: { read: 300, write: 60, ingest: 300, analytics: 60 },
  team: { read: 1200, write: 300, ingest: 3000, analytics: 300 },
  enterprise: { read: 6000, write: 3000, ingest: 30000, analytics: 1200 },
};

/** Requests per minute per address for calls without a principal (no credential needed, or none given). */
export const ANONYMOUS_PER_MINUTE = 600;

/**
 * Requests per minute per address to the public steps of single sign-on (start and callback,
 * two a sign-in): each start writes a flow and may make the service ask the identity provider,
 * so they are counted although they need no credential. Sized for an office behind one address.
 */
export const SIGN_IN_PER_MINUTE = 120;
