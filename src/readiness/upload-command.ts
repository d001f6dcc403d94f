import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { output, parseFlags, UsageError } from '../cli/args.js';
import type { Config } from '../config.js';

const PATH = '/api/organization/maturity-level-reports';

/** Where the service is and who calls it, when not given as flags (ORGCTL_URL, ORGCTL_API_KEY). */
export interface ClientDefaults {
  url?: string;
  key?: string;
}

/**
 * orgctl readiness upload FILE [--url URL] [--key KEY] [--json]: sends a report file ("-" reads
 * standard input) to a running service's application address and prints the stored report.
 * Exit 0 stored, 1 refused by the service or unreachable, 2 usage error.
 */
export async function readinessUpload(argv: string[], config: Config, defaults: ClientDefaults): Promise<number> {
  const { values, positionals } = parseFlags(argv, { url: { type: 'string' }, key: { type: 'string' }, json: { type: 'boolean' } }, 1);
  const file = positionals[0];
  if (file === undefined) throw new UsageError('Usage: orgctl readiness upload FILE [--url URL] [--key KEY] [--json]');
  const key = values.key ?? defaults.key;
  if (!key) throw new UsageError('Missing API key: pass --key or set ORGCTL_API_KEY.');
  const base = (values.url ?? defaults.url ?? `http://127.0.0.1:${config.appPort ?? config.port}`).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(base)) throw new UsageError(`--url must start with http:// or https://, got ${base}.`);

  let body: string;
  try {
    body = file === '-' ? await text(process.stdin) : await readFile(file, 'utf8');
    JSON.parse(body);
  } catch (e) {
    process.stderr.write(`Cannot read a JSON report from ${file}: ${(e as Error).message}\n`);
    return 1;
  }

  let res: Response;
  try {
    res = await fetch(`${base}${PATH}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
  } catch (e) {
    process.stderr.write(`Cannot reach ${base}: ${(e as Error & { cause?: Error }).cause?.message ?? (e as Error).message}\n`);
    return 1;
  }
  const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status !== 201) {
    const problems = (answer.metadata as { errors?: { path: string; message: string }[] } | undefined)?.errors ?? [];
    const lines = [`Upload refused (${res.status}): ${String(answer.detail ?? res.statusText)}`, ...problems.map((p) => `  ${p.path || '/'} ${p.message}`)];
    process.stderr.write(`${lines.join('\n')}\n`);
    return 1;
  }
  output(values.json, answer, [`Report ${String(answer.reportId)} stored for ${String(answer.repoId)} at ${new Date(Number(answer.createdAt)).toISOString()}.`]);
  return 0;
}
