import type { Config } from '../config.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { ProvisioningEngine, type EngineLogger } from './engine.js';
import { SdkE2bClient, type E2bClient } from './providers/e2b-client.js';

/** The E2B cloud client of this configuration: the official SDK when E2B_API_KEY is set. */
export const e2bFromConfig = (config: Config): E2bClient | undefined => (config.e2bApiKey ? new SdkE2bClient(config.e2bApiKey) : undefined);

/** The background provisioning engine; `orgctl serve` starts it after listening and stops it before the database closes. */
export function createEngine(
  config: Config,
  db: Db,
  log?: EngineLogger,
  e2b: E2bClient | undefined = e2bFromConfig(config),
  clock: Clock = systemClock,
): ProvisioningEngine {
  return new ProvisioningEngine(
    db,
    {
      tickMs: config.computersEngineTickMs,
      leaseMs: config.computersLeaseMs,
      maxAttempts: config.computersMaxAttempts,
      logMaxChars: config.installLogMaxChars,
      concurrency: 8,
      e2bTemplate: config.e2bTemplate,
    },
    e2b,
    clock,
    log,
  );
}
