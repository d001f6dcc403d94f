import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CriterionResult } from '../evaluate/report.js';
import { GENERATORS } from './generators/index.js';
import type { FixContext, GeneratedFile, Generator } from './types.js';

export type Verdict = 'pass' | 'fail' | 'skip';

export const verdictOf = (r: CriterionResult | undefined): Verdict => (!r || r.numerator === null ? 'skip' : r.numerator === r.denominator ? 'pass' : 'fail');

/** What fix decided for one generator: written (with the criteria it targets), or left alone and why. */
type Step = { generator: string; files: GeneratedFile[]; criteria: string[]; awaits?: string[] } | { generator: string; left: string };

export interface Plan {
  steps: Step[];
  files: GeneratedFile[];
  /** Every criterion some written file targets. */
  targeted: string[];
  /** The targeted criteria that pass only once the forge acts on the files (see Generated.awaits). */
  awaits: string[];
}

/**
 * Runs the generators a failing criterion calls for. A generator whose file (or any file doing its
 * job) exists at HEAD or anywhere in the user's working tree, ignored files included, is left
 * alone: fix never overwrites, nor shadows, a file.
 */
export async function plan(ctx: FixContext, results: Record<string, CriterionResult>, userRoot: string, only?: readonly string[]): Promise<Plan> {
  const steps: Step[] = [];
  const failing = (g: Generator) => g.when.filter((id) => verdictOf(results[id]) === 'fail');
  for (const g of GENERATORS) {
    if (only && !only.includes(g.id)) continue;
    const present = ctx.scan.files.find((f) => g.existing.test(f));
    if (present) {
      steps.push({ generator: g.id, left: `${present} exists` });
      continue;
    }
    if (g.when.length && !failing(g).length) {
      steps.push({ generator: g.id, left: `${g.when.join(', ')} already ${g.when.length > 1 ? 'pass' : 'passes'} or does not apply` });
      continue;
    }
    const out = await g.generate(ctx);
    if ('nothing' in out) {
      steps.push({ generator: g.id, left: out.nothing });
      continue;
    }
    const onDisk = out.files.find((f) => existsSync(path.join(userRoot, f.path)));
    if (onDisk) {
      steps.push({ generator: g.id, left: `${onDisk.path} exists in the working tree (uncommitted)` });
      continue;
    }
    steps.push({ generator: g.id, files: out.files, criteria: out.criteria, ...(out.awaits ? { awaits: out.awaits } : {}) });
  }
  // A file no criterion depends on (.editorconfig) comes along with a fix; it is never the whole of one.
  if (!steps.some((s) => 'files' in s && s.criteria.length))
    for (const [i, s] of steps.entries()) if ('files' in s) steps[i] = { generator: s.generator, left: 'written only with files for failing criteria' };
  const written = steps.filter((s): s is Extract<Step, { files: GeneratedFile[] }> => 'files' in s);
  const targeted = [...new Set(written.flatMap((s) => s.criteria))].sort();
  return { steps, files: written.flatMap((s) => s.files), targeted, awaits: targeted.filter((id) => written.some((s) => s.awaits?.includes(id))) };
}

/** Criteria whose verdict moved between two evaluations, with both verdicts. */
export function changes(before: Record<string, CriterionResult>, after: Record<string, CriterionResult>): { id: string; before: Verdict; after: Verdict }[] {
  return Object.keys(before)
    .sort()
    .map((id) => ({ id, before: verdictOf(before[id]), after: verdictOf(after[id]) }))
    .filter((c) => c.before !== c.after);
}
