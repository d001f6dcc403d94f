import { SOURCE_FILE } from '../../evaluate/evidence.js';
import { UNIT_TEST } from '../../evaluate/checks/testing.js';
import type { Generator } from '../types.js';

/** At most this many source files are read, so a huge repository costs the same as a large one. */
const MAX_FILES = 4000;
const NAME = '([A-Z][A-Z0-9_]{1,})';
const Q = `["'\`]`;

/** How each language reads a variable; the name is group 1, a literal default (where the call gives one) group 2. */
const READS: RegExp[] = [
  new RegExp(`\\bprocess\\.env\\.${NAME}\\b(?:\\s*(?:\\?\\?|\\|\\|)\\s*${Q}([^"'\`\\n]*)${Q})?`, 'g'),
  new RegExp(`\\bprocess\\.env\\[${Q}${NAME}${Q}\\](?:\\s*(?:\\?\\?|\\|\\|)\\s*${Q}([^"'\`\\n]*)${Q})?`, 'g'),
  new RegExp(`\\b(?:import\\.meta|Bun)\\.env\\.${NAME}\\b`, 'g'),
  new RegExp(`\\bDeno\\.env\\.get\\(${Q}${NAME}${Q}\\)`, 'g'),
  new RegExp(`\\bos\\.(?:getenv|environ\\.get)\\(\\s*${Q}${NAME}${Q}(?:\\s*,\\s*${Q}([^"'\\n]*)${Q})?`, 'g'),
  new RegExp(`\\bos\\.environ\\[\\s*${Q}${NAME}${Q}\\s*\\]`, 'g'),
  new RegExp(`\\bos\\.(?:Getenv|LookupEnv)\\(\\s*"${NAME}"\\s*\\)`, 'g'),
  new RegExp(`\\benv::var(?:_os)?\\(\\s*"${NAME}"\\s*\\)|\\benv!\\(\\s*"${NAME}"\\s*\\)`, 'g'),
  new RegExp(`\\bENV(?:\\.fetch\\(\\s*|\\[\\s*)${Q}${NAME}${Q}(?:\\s*,\\s*${Q}([^"'\\n]*)${Q})?`, 'g'),
  new RegExp(`\\b(?:System\\.getenv|Environment\\.GetEnvironmentVariable|getenv)\\(\\s*"${NAME}"\\s*\\)`, 'g'),
];

/** Set by the shell, the operating system or CI, never by the application's operator. */
const AMBIENT = new Set(['PATH', 'HOME', 'USER', 'PWD', 'SHELL', 'TERM', 'LANG', 'TMPDIR', 'TEMP', 'TMP', 'CI', 'HOSTNAME', 'NODE_ENV', 'GITHUB_ACTIONS']);
const SECRET = /SECRET|TOKEN|PASSWORD|PASSWD|PRIVATE|API_KEY|_KEY$|CREDENTIAL/;

interface EnvRead {
  name: string;
  files: string[];
  defaultValue?: string;
}

/** The environment variables the application code reads (tests and vendored code left out), by name. */
async function envReads(scan: { files: readonly string[]; read(f: string): Promise<string | undefined> }): Promise<EnvRead[]> {
  const found = new Map<string, EnvRead>();
  const sources = scan.files.filter((f) => SOURCE_FILE.test(f) && !UNIT_TEST.test(f) && !/(^|\/)(tests?|spec|__tests__|fixtures?|examples?)\//.test(f));
  for (const f of sources.slice(0, MAX_FILES)) {
    const text = await scan.read(f);
    if (text === undefined) continue;
    for (const re of READS)
      for (const m of text.matchAll(re)) {
        const name = m.slice(1).find((g) => g !== undefined && /^[A-Z]/.test(g));
        if (!name || AMBIENT.has(name)) continue;
        const value = m[2] !== undefined && m[2] !== name ? m[2] : undefined;
        const r = found.get(name) ?? { name, files: [] };
        if (!r.files.includes(f)) r.files.push(f);
        if (r.defaultValue === undefined && value !== undefined && !SECRET.test(name)) r.defaultValue = value;
        found.set(name, r);
      }
  }
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** `.env.example`: every variable the code reads, where it is read, and its default where the code gives one. */
export const envExample = {
  id: 'env-example',
  when: ['env_template'],
  existing: /(^|\/)(\.env\.(example|sample|template|dist|defaults)|example\.env|env\.example|\.env-example)$/,
  async generate(ctx) {
    const reads = await envReads(ctx.scan);
    if (!reads.length) return { nothing: 'the code reads no environment variable' };
    const lines = [
      '# The environment variables the code reads, found by orgctl readiness fix.',
      '# Copy to .env (never committed) and fill in; a value shown is the default the code falls back to.',
    ];
    for (const r of reads) {
      const where = r.files.slice(0, 3).join(', ') + (r.files.length > 3 ? ` and ${r.files.length - 3} more` : '');
      lines.push('', `# Read in ${where}${SECRET.test(r.name) ? ' (a secret: keep it out of the repository)' : ''}`, `${r.name}=${r.defaultValue ?? ''}`);
    }
    return { files: [{ path: '.env.example', content: `${lines.join('\n')}\n` }], criteria: ['env_template', 'secrets_management'] };
  },
} satisfies Generator;
