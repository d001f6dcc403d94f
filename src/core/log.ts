import { pino } from 'pino';
import type { Config } from '../config.js';

/** The service's logger: JSON lines on standard output, never a credential. One per thread that logs. */
export function serviceLog(config: Pick<Config, 'logLevel'>): pino.Logger {
  return pino({ level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] });
}
