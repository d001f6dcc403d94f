import type { ErrorObject } from 'ajv';
import { hookEvents } from './events.js';
import { validateHookEventMap } from './generated/validators.js';
import { matcherProblem } from './matcher.js';
import type { HookEventMap } from './schemas.js';

/** One fault of a configuration file: where it is (JSON pointer, '' for the file as a whole) and what is wrong. */
export interface ConfigIssue {
  file: string;
  path: string;
  message: string;
}

export class HooksConfigError extends Error {
  constructor(readonly issues: ConfigIssue[]) {
    super(issues.map(formatIssue).join('\n'));
  }
}

/**
 * `/home/me/.orgctl/hooks.json: /hooks/Stop/0/hooks/1/timeout must be a number ...`.
 * Messages never repeat the faulty value: a command line may hold a token.
 */
export function formatIssue(issue: ConfigIssue): string {
  return issue.path === '' ? `${issue.file}: ${issue.message}` : `${issue.file}: ${issue.path} ${issue.message}`;
}

const layouts = 'the top level must be a JSON object: {"hooks": {EVENT: [entry, ...]}} or {EVENT: [entry, ...]}';

/**
 * Checks one parsed file. Both layouts are accepted: the event map under
 * `hooks` (other top-level keys are left alone, so the map can live in a larger settings
 * file) or the event map itself at the top level.
 */
export function validateHooksDocument(doc: unknown, file: string): { hooks: HookEventMap; issues: ConfigIssue[] } {
  if (!isObject(doc)) return { hooks: {}, issues: [{ file, path: '', message: layouts }] };
  const nested = 'hooks' in doc;
  const base = nested ? '/hooks' : '';
  const map = nested ? doc.hooks : doc;
  const issues: ConfigIssue[] = [];
  if (nested) {
    for (const key of Object.keys(doc)) {
      if ((hookEvents as readonly string[]).includes(key))
        issues.push({ file, path: `/${key}`, message: 'is an event outside "hooks"; move it into the "hooks" object' });
    }
  }
  const reported = new Set<string>();
  // Precompiled by ajv (src/hooks/generated, `npm run hooks:validators`): no schema is compiled here.
  const errors = validateHookEventMap(map) ? [] : (validateHookEventMap.errors ?? []);
  for (const error of errors) {
    const path = base + pathOf(error);
    // One value may fail several ways (ajv checks everything); the first says it.
    if ([...reported].some((p) => path === p || path.startsWith(`${p}/`))) continue;
    reported.add(path);
    issues.push({ file, path, message: describe(error) });
  }
  issues.push(...matcherIssues(map, file, base));
  return { hooks: issues.length === 0 ? (map as HookEventMap) : {}, issues };
}

/** Markers of src/hooks/schemas.ts, read from the failing schema (the validators are verbose). */
interface Markers {
  errorMessage?: string;
  eventMap?: boolean;
  properties?: Record<string, { errorMessage?: string }>;
}

/** The JSON pointer of the faulty value: a missing or unknown property is named, not its object. */
function pathOf(error: ErrorObject): string {
  if (error.keyword === 'required') return `${error.instancePath}/${(error.params as { missingProperty: string }).missingProperty}`;
  if (error.keyword === 'additionalProperties') return `${error.instancePath}/${(error.params as { additionalProperty: string }).additionalProperty}`;
  return error.instancePath;
}

function describe(error: ErrorObject): string {
  const schema = (error.parentSchema ?? {}) as Markers;
  switch (error.keyword) {
    case 'additionalProperties':
      return schema.eventMap ? `is not a known event (events: ${hookEvents.join(', ')})` : 'is not a known property';
    case 'required': {
      const custom = schema.properties?.[(error.params as { missingProperty: string }).missingProperty]?.errorMessage;
      return custom ? `is required and ${custom}` : 'is required';
    }
    default:
      return schema.errorMessage ?? error.message ?? 'is invalid';
  }
}

/** Bad regular expressions, looked for wherever a string matcher sits, valid structure or not. */
function matcherIssues(map: unknown, file: string, base: string): ConfigIssue[] {
  if (!isObject(map)) return [];
  const issues: ConfigIssue[] = [];
  for (const event of hookEvents) {
    const entries = map[event];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry: unknown, i) => {
      if (!isObject(entry) || typeof entry.matcher !== 'string') return;
      const problem = matcherProblem(entry.matcher);
      if (problem) issues.push({ file, path: `${base}/${event}/${i}/matcher`, message: problem });
    });
  }
  return issues;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
