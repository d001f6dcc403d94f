/**
 * An invalid setting, reported as one message without a stack. Apart from config.ts so that
 * main.ts can recognise it without loading the configuration's schemas (TypeBox, ajv): client
 * commands such as `orgctl hooks run` start without them.
 */
export class ConfigError extends Error {}
