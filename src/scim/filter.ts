import { filter as compile, parse, type Filter } from 'scim2-parse-filter';
import { ScimError } from './errors.js';

/**
 * SCIM filters (RFC 7644 §3.4.2.2), parsed by scim2-parse-filter and evaluated by its tester.
 * The tester compares strings exactly, while RFC 7643 makes userName, emails, displayName and
 * names case-insensitive (caseExact false); those attributes are folded to lower case on both
 * sides first. id and externalId stay exact, as the RFC says.
 */
const CASE_INSENSITIVE = new Set([
  'username',
  'displayname',
  'emails.value',
  'emails',
  'name.givenname',
  'name.familyname',
  'name.formatted',
  'members.display',
]);

const strip = (path: string): string => {
  const colon = path.lastIndexOf(':');
  return (colon < 0 ? path : path.slice(colon + 1)).toLowerCase();
};

function fold(f: Filter, prefix = ''): Filter {
  switch (f.op) {
    case 'and':
    case 'or':
      return { ...f, filters: (f as { filters: Filter[] }).filters.map((c) => fold(c, prefix)) } as Filter;
    case 'not':
      return { ...f, filter: fold((f as { filter: Filter }).filter, prefix) } as Filter;
    case '[]': {
      const v = f as { attrPath: string; valFilter: Filter };
      return { ...v, valFilter: fold(v.valFilter, `${strip(v.attrPath)}.`) } as Filter;
    }
    case 'pr':
      return f;
    default: {
      const c = f as { attrPath: string; compValue: unknown };
      const insensitive = CASE_INSENSITIVE.has(prefix + strip(c.attrPath)) && typeof c.compValue === 'string';
      return (insensitive ? { ...c, compValue: (c.compValue as string).toLowerCase() } : c) as Filter;
    }
  }
}

/** The resource as the folded filter compares it: the case-insensitive strings lower-cased. */
function folded(resource: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    const path = prefix + key.toLowerCase();
    if (typeof value === 'string') out[key] = CASE_INSENSITIVE.has(path) ? value.toLowerCase() : value;
    else if (Array.isArray(value)) out[key] = value.map((v) => (v !== null && typeof v === 'object' ? folded(v as Record<string, unknown>, `${path}.`) : v));
    else if (value !== null && typeof value === 'object') out[key] = folded(value as Record<string, unknown>, `${path}.`);
    else out[key] = value;
  }
  return out;
}

function parseFilter(text: string): Filter {
  try {
    return parse(text);
  } catch {
    throw new ScimError(400, `The filter ${JSON.stringify(text.slice(0, 200))} is not a SCIM filter.`, 'invalidFilter');
  }
}

function predicate(ast: Filter): (resource: Record<string, unknown>) => boolean {
  const test = compile(fold(ast));
  return (resource) => test(folded(resource));
}

/** A filter parsed once, as a predicate over SCIM resources; 400 invalidFilter when it does not parse. */
export function scimFilter(text: string): (resource: Record<string, unknown>) => boolean {
  return predicate(parseFilter(text));
}

/** `attribute eq "text"` alone (the attribute without its schema URN, lower-cased), which a lookup answers instead of a scan. */
export function equalityOf(ast: Filter): { attribute: string; value: string } | undefined {
  if (ast.op !== 'eq') return undefined;
  const c = ast as { attrPath: string; compValue: unknown };
  return typeof c.compValue === 'string' ? { attribute: strip(c.attrPath), value: c.compValue } : undefined;
}

/** The equality a filter text is, if it is one and parses (a filter that does not parse is refused where it is evaluated). */
export function equalityFilter(text: string): { attribute: string; value: string } | undefined {
  try {
    return equalityOf(parse(text));
  } catch {
    return undefined;
  }
}

/** The value filter of a PATCH path such as `members[value eq "id"]` or `emails[type eq "work"].value`. */
export interface PatchPath {
  attribute: string;
  /** The filter inside the brackets: which values of a multi-valued attribute the operation touches. */
  where?: (value: Record<string, unknown>) => boolean;
  /** The filter when it is `attribute eq "text"` alone, which an index of the values answers. */
  equals?: { attribute: string; value: string };
  sub?: string;
}

/** Parses a PATCH operation's path (RFC 7644 §3.5.2): `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`, with or without a schema URN. */
export function patchPath(path: string): PatchPath {
  const bracket = path.indexOf('[');
  if (bracket < 0) {
    const plain = strip(path);
    const dot = plain.indexOf('.');
    return dot < 0 ? { attribute: plain } : { attribute: plain.slice(0, dot), sub: plain.slice(dot + 1) };
  }
  const close = path.lastIndexOf(']');
  if (close < bracket) throw new ScimError(400, `The path ${JSON.stringify(path)} is not a SCIM attribute path.`, 'invalidPath');
  const attribute = strip(path.slice(0, bracket));
  const rest = path.slice(close + 1);
  if (rest !== '' && !rest.startsWith('.')) throw new ScimError(400, `The path ${JSON.stringify(path)} is not a SCIM attribute path.`, 'invalidPath');
  let ast: Filter;
  try {
    ast = parse(path.slice(bracket + 1, close));
  } catch {
    throw new ScimError(400, `The filter in the path ${JSON.stringify(path)} is not a SCIM filter.`, 'invalidPath');
  }
  return { attribute, where: predicate(ast), equals: equalityOf(ast), sub: rest === '' ? undefined : rest.slice(1).toLowerCase() };
}
