import { readFileSync } from 'node:fs';
import type { ReportUpload } from '../schemas.js';
import type { App } from './apps.js';
import type { GitFacts } from './git.js';

export type CriterionResult = { numerator: number | null; denominator: number; rationale: string };

/** The upload shape, plus who made it: the upload schema refuses unknown fields, so `evaluator` is printed only. */
export type EvaluatedReport = ReportUpload & { report: Record<string, CriterionResult>; evaluator: { name: 'orgctl'; version: string } };

function readVersion(): string {
  try {
    // dist/readiness/evaluate and src/readiness/evaluate both sit three levels below package.json.
    return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
export const EVALUATOR_VERSION = readVersion();

const sortedRecord = <T>(entries: [string, T][]): Record<string, T> => Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export function buildReport(o: { repoUrl: string; facts: GitFacts; apps: readonly App[]; results: Record<string, CriterionResult> }): EvaluatedReport {
  return {
    repoUrl: o.repoUrl,
    apps: sortedRecord(o.apps.map((a) => [a.path, { description: a.description }])),
    report: sortedRecord(Object.entries(o.results)),
    ...(o.facts.commitHash ? { commitHash: o.facts.commitHash } : {}),
    ...(o.facts.branch ? { branch: o.facts.branch } : {}),
    hasLocalChanges: o.facts.hasLocalChanges,
    hasNonRemoteCommits: o.facts.hasNonRemoteCommits,
    evaluator: { name: 'orgctl', version: EVALUATOR_VERSION },
  };
}

/** The body the upload endpoint accepts: everything but `evaluator`, which its schema refuses. */
export function uploadBody(report: EvaluatedReport): ReportUpload {
  const { evaluator: _evaluator, ...rest } = report;
  return rest;
}

/** JSON with every object's keys sorted, so the same report is the same bytes. */
export function stableJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  return JSON.stringify(sort(value), null, 2);
}
