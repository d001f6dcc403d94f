import type { Check } from '../types.js';
import { buildChecks } from './build.js';
import { devEnvChecks } from './dev-env.js';
import { docsChecks } from './docs.js';
import { observabilityChecks } from './observability.js';
import { productChecks } from './product.js';
import { securityChecks } from './security.js';
import { styleChecks } from './style.js';
import { taskDiscoveryChecks } from './task-discovery.js';
import { testingChecks } from './testing.js';

/** One check per criterion of the model, pillar by pillar. */
export const CHECKS: readonly Check[] = [
  ...styleChecks,
  ...buildChecks,
  ...testingChecks,
  ...docsChecks,
  ...devEnvChecks,
  ...observabilityChecks,
  ...securityChecks,
  ...taskDiscoveryChecks,
  ...productChecks,
];
