import { criterionCases, deps, NODE_APP, workflow } from './fixtures.js';

criterionCases('Product & Experimentation', [
  {
    id: 'product_analytics_instrumentation',
    pass: deps('posthog-js'),
    passNames: /package\.json(:\d+)? \(product analytics SDK: "posthog-js"/,
    fail: NODE_APP,
    failNames: /product analytics SDK/,
  },
  {
    id: 'error_to_insight_pipeline',
    pass: { ...NODE_APP, 'docs/errors.md': 'Sentry uses the GitHub integration to open issues for new errors.\n' },
    passNames: /docs\/errors\.md(:\d+)? \(documented error-to-issue integration/,
    fail: { ...NODE_APP, ...workflow('npm test') },
    failNames: /error-to-issue automation/,
  },
]);
