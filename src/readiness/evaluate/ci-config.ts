import { isPair, isScalar, parse as parseYaml, parseDocument, visit, type Node } from 'yaml';
import type { RepoScan } from './scan.js';

/**
 * CI configuration read as configuration rather than as words. A check that looks for a tool in
 * CI reads only what CI executes (the `run`, `uses` and `with` of a GitHub Actions step, a GitLab
 * job's `script`, ...): a job named "todo", a comment or a step's title is not evidence. The text
 * keeps its length and line breaks with everything else blanked, so a match still has its line.
 */

/** Keys whose values CI executes or passes to what it executes. */
const GITHUB_KEYS = new Set(['run', 'uses', 'with', 'image', 'entrypoint', 'args']);
const OTHER_KEYS = new Set([
  'script',
  'before_script',
  'after_script',
  'run',
  'command',
  'commands',
  'uses',
  'image',
  'orbs',
  'task',
  'inputs',
  'bash',
  'pwsh',
  'powershell',
  'plugins',
  'include',
  'extends',
  'template',
]);

const blank = (text: string) => text.replace(/[^\n]/g, ' ');

function maskYaml(text: string, keys: Set<string>): string {
  let doc;
  try {
    doc = parseDocument(text, { strict: false, uniqueKeys: false });
  } catch {
    return blank(text);
  }
  if (doc.errors.length) return blank(text);
  const keep: [number, number][] = [];
  visit(doc, {
    Pair(_, pair) {
      if (!isPair(pair) || !isScalar(pair.key) || !keys.has(String(pair.key.value))) return undefined;
      const range = (pair.value as Node | null)?.range;
      if (range) keep.push([range[0], range[1]]);
      // Nested values are kept with their parent's range.
      return visit.SKIP;
    },
  });
  const out = blank(text).split('');
  for (const [a, b] of keep) for (let i = a; i < b && i < text.length; i++) out[i] = text[i]!;
  return out.join('');
}

/** Jenkinsfiles are Groovy: only comments are removed. */
const maskGroovy = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/\/\/[^\n]*/g, blank);

const cache = new WeakMap<RepoScan, Map<string, Promise<string | undefined>>>();

/** The executed part of a CI file, same length as the file; undefined when the file cannot be read. */
export function ciCommands(scan: RepoScan, file: string): Promise<string | undefined> {
  let byFile = cache.get(scan);
  if (!byFile) cache.set(scan, (byFile = new Map()));
  let p = byFile.get(file);
  if (!p) {
    p = scan.read(file).then((text) => {
      if (text === undefined) return undefined;
      if (/(^|\/)Jenkinsfile$/.test(file)) return maskGroovy(text);
      return maskYaml(text, file.startsWith('.github/workflows/') ? GITHUB_KEYS : OTHER_KEYS);
    });
    byFile.set(file, p);
  }
  return p;
}

/** The 1-based line of `index` in `text`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export interface Workflow {
  file: string;
  /** Events that start it (`push`, `pull_request`, `schedule`, `release`, `workflow_dispatch`, ...). */
  triggers: string[];
  /** Branches a `push` trigger is limited to; empty for every branch. */
  pushBranches: string[];
  jobs: { id: string; timeoutMinutes: number | undefined; commands: string }[];
}

const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

/** The GitHub Actions workflows of the checkout, parsed; a file that does not parse is left out. */
export async function githubWorkflows(scan: RepoScan): Promise<Workflow[]> {
  const out: Workflow[] = [];
  for (const file of scan.files.filter((f) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(f))) {
    let doc: unknown;
    try {
      doc = parseYaml((await scan.read(file)) ?? '', { strict: false, uniqueKeys: false });
    } catch {
      continue;
    }
    if (!doc || typeof doc !== 'object') continue;
    const w = doc as Record<string, unknown>;
    const on = w.on ?? w.true; // YAML 1.1 readers turn a bare `on` into true; the yaml package does not, but be lenient.
    const triggers = on && typeof on === 'object' && !Array.isArray(on) ? Object.keys(on) : asStrings(on);
    const push = on && typeof on === 'object' && !Array.isArray(on) ? (on as Record<string, unknown>).push : undefined;
    const pushBranches = push && typeof push === 'object' ? asStrings((push as Record<string, unknown>).branches) : [];
    const jobs = w.jobs && typeof w.jobs === 'object' ? Object.entries(w.jobs as Record<string, unknown>) : [];
    out.push({
      file,
      triggers: triggers.sort(),
      pushBranches,
      jobs: jobs.map(([id, j]) => {
        const job = (j ?? {}) as Record<string, unknown>;
        const t = job['timeout-minutes'];
        const steps = Array.isArray(job.steps) ? (job.steps as Record<string, unknown>[]) : [];
        const commands = [job.uses, ...steps.flatMap((s) => [s?.run, s?.uses, s?.with ? JSON.stringify(s.with) : undefined])]
          .filter((x): x is string => typeof x === 'string')
          .join('\n');
        return { id, timeoutMinutes: typeof t === 'number' ? t : undefined, commands };
      }),
    });
  }
  return out;
}
