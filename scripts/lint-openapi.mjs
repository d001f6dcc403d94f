// Lints the committed openapi.json with Redocly's recommended rules (part of `npm run lint`).
// A few findings are accepted, each for a reason that holds by design; any other fails.
import { createConfig, lint } from '@redocly/openapi-core';

const ACCEPTED = [
  // Both paths are the specification's. They take different methods (GET …/name/{name}, POST
  // …/{computerId}/install-deps), so no request matches both.
  { ruleId: 'no-ambiguous-paths', pointer: '#/paths/~1api~1v0~1computers~1{computerId}~1install-deps' },
  // Liveness and readiness answer 200 or 503 and nothing else: they take no input to refuse.
  { ruleId: 'operation-4xx-response', pointer: '#/paths/~1healthz/get/responses' },
  { ruleId: 'operation-4xx-response', pointer: '#/paths/~1readyz/get/responses' },
  // A redirect to the versioned package: it answers 302 and nothing else.
  { ruleId: 'operation-2xx-response', pointer: '#/paths/~1download~1orgctl.tgz/get/responses' },
  { ruleId: 'operation-4xx-response', pointer: '#/paths/~1download~1orgctl.tgz/get/responses' },
  // Single sign-on's two browser steps answer with redirects only: to the identity provider, back
  // into the web app, or to the login page with the reason of a refusal (docs/sso.md).
  { ruleId: 'operation-2xx-response', pointer: '#/paths/~1api~1v0~1sso~1start/get/responses' },
  { ruleId: 'operation-2xx-response', pointer: '#/paths/~1api~1v0~1sso~1callback/get/responses' },
  { ruleId: 'operation-4xx-response', pointer: '#/paths/~1api~1v0~1sso~1callback/get/responses' },
];

const config = await createConfig({ extends: ['recommended'] });
const problems = (await lint({ ref: new URL('../openapi.json', import.meta.url).pathname, config })).filter(
  (p) => !ACCEPTED.some((a) => a.ruleId === p.ruleId && p.location?.[0]?.pointer === a.pointer),
);
for (const p of problems) process.stderr.write(`openapi.json ${p.severity} ${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer ?? ''})\n`);
if (problems.length > 0) process.exit(1);
