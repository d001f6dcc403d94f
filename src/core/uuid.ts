const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its text form, any version, either case: ids from a path, a query or a token are checked before they reach a uuid column. */
export const isUuid = (s: string): boolean => UUID.test(s);
