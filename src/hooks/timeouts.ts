/**
 * The timeout bounds of a hook, apart from the schemas so that the hooks runner reads them
 * without loading TypeBox.
 */

/** setTimeout holds at most 2^31-1 ms; a longer timeout would fire at once. */
export const maxTimeoutSeconds = 2_147_483;
export const defaultTimeoutSeconds = 60;
