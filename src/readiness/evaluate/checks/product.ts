import { ci, dep, doc } from '../evidence.js';
import { appEvidence } from '../define.js';
import type { Check } from '../types.js';

export const productChecks: Check[] = [
  appEvidence('product_analytics_instrumentation', [
    dep(
      'product analytics SDK',
      'posthog-js',
      'posthog-node',
      'posthog',
      'mixpanel',
      'mixpanel-browser',
      '@amplitude/analytics-browser',
      '@amplitude/analytics-node',
      'amplitude',
      'heap-api',
      '@segment/analytics-next',
      '@segment/analytics-node',
      'analytics-node',
      'react-ga4',
      'ga-4-react',
      '@vercel/analytics',
      'plausible-tracker',
      '@rudderstack/analytics-js',
      '@snowplow/browser-tracker',
    ),
  ]),
  appEvidence('error_to_insight_pipeline', [
    doc(
      'documented error-to-issue integration',
      /(sentry|bugsnag|rollbar).{0,80}(github|jira|linear) (integration|issues?)|(errors?|exceptions?).{0,60}(automatically|auto-?)\s*(create|open|file)[sd]? (issues?|tickets?)/i,
    ),
    ci('error-to-issue automation', /(sentry|bugsnag|rollbar).{0,80}issue|create-issue-from-error|errors?[-_ ]to[-_ ]issues?/i),
  ]),
];
