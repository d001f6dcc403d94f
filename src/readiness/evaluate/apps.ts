import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseJson, tomlArray } from './parse.js';
import type { RepoScan } from './scan.js';

export type Language = 'javascript' | 'typescript' | 'python' | 'go' | 'rust' | 'java' | 'kotlin' | 'swift' | 'ruby' | 'c/c++';

export interface App {
  /** Repository-relative directory, `.` for the root. */
  path: string;
  description: string;
  languages: Language[];
  /** The files under the application's directory, sorted. */
  files: readonly string[];
  /**
   * Files of the repository's own shared configuration packages the application depends on (a
   * monorepo's `@acme/eslint-config`): their rules are the application's rules.
   */
  sharedConfig: readonly string[];
}

export interface Discovery {
  apps: App[];
  /** The workspace mechanisms found, with the file that declares each (`package.json workspaces`). */
  workspaces: string[];
}

/** Directories that hold examples, demos or fixtures: never applications. */
const NOT_APP = /(^|\/)(examples?|demos?|fixtures?|testdata|test|tests|__tests__|samples?|docs?|node_modules|vendor|third_party)(\/|$)/;

/** `packages/*` -> a regular expression over directories; `**` crosses directories. */
export function globToRegExp(glob: string): RegExp {
  const clean = glob.replace(/^\.\//, '').replace(/\/+$/, '');
  let re = '';
  for (let i = 0; i < clean.length; i++) {
    const c = clean[i]!;
    if (c === '*' && clean[i + 1] === '*') {
      re += '.*';
      i++;
      if (clean[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

const dirOf = (file: string) => {
  const d = path.posix.dirname(file);
  return d === '' ? '.' : d;
};

/** Directories holding `manifest` whose path matches one of the globs (a leading `!` excludes). */
function membersOf(scan: RepoScan, manifest: RegExp, globs: string[]): string[] {
  const include = globs.filter((g) => !g.startsWith('!')).map(globToRegExp);
  const exclude = globs.filter((g) => g.startsWith('!')).map((g) => globToRegExp(g.slice(1)));
  const dirs = new Set<string>();
  for (const f of scan.files) {
    if (!manifest.test(path.posix.basename(f))) continue;
    const d = dirOf(f);
    if (d === '.' || !include.some((r) => r.test(d)) || exclude.some((r) => r.test(d))) continue;
    dirs.add(d);
  }
  return [...dirs];
}

interface Found {
  dir: string;
  kind: string;
}

async function npmMembers(scan: RepoScan, workspaces: string[]): Promise<Found[]> {
  const found: Found[] = [];
  const pkg = parseJson(await scan.read('package.json')) as { workspaces?: string[] | { packages?: string[] } } | undefined;
  const fromPkg = Array.isArray(pkg?.workspaces) ? pkg.workspaces : (pkg?.workspaces?.packages ?? []);
  if (fromPkg.length) workspaces.push('package.json workspaces');
  let fromPnpm: string[] = [];
  const pnpm = await scan.read('pnpm-workspace.yaml');
  if (pnpm !== undefined) {
    try {
      fromPnpm = ((parseYaml(pnpm) as { packages?: string[] } | null)?.packages ?? []).filter((p) => typeof p === 'string');
    } catch {
      fromPnpm = [];
    }
    workspaces.push('pnpm-workspace.yaml packages');
  }
  for (const dir of membersOf(scan, /^package\.json$/, [...fromPkg, ...fromPnpm])) {
    const member = parseJson(await scan.read(`${dir}/package.json`)) as { private?: boolean; bin?: unknown; scripts?: Record<string, string> } | undefined;
    // A private package without a binary or a way to start it is shared code, not an application.
    const runnable = member?.bin !== undefined || ['start', 'dev', 'serve'].some((s) => member?.scripts?.[s] !== undefined);
    if (member?.private === true && !runnable) continue;
    found.push({ dir, kind: 'node' });
  }
  return found;
}

async function goMembers(scan: RepoScan, workspaces: string[]): Promise<Found[]> {
  const work = await scan.read('go.work');
  if (work === undefined) return [];
  workspaces.push('go.work use');
  const uses: string[] = [];
  const block = /use\s*\(([^)]*)\)/g;
  for (const m of work.matchAll(block))
    uses.push(
      ...m[1]!
        .split('\n')
        .map((l) => l.replace(/\/\/.*/, '').trim())
        .filter(Boolean),
    );
  for (const m of work.matchAll(/^use\s+([^\s(]+)/gm)) uses.push(m[1]!);
  return membersOf(scan, /^go\.mod$/, uses).map((dir) => ({ dir, kind: 'go' }));
}

async function cargoMembers(scan: RepoScan, workspaces: string[]): Promise<Found[]> {
  const cargo = await scan.read('Cargo.toml');
  if (cargo === undefined || !/^\[workspace\]/m.test(cargo)) return [];
  workspaces.push('Cargo.toml [workspace] members');
  const members = tomlArray(cargo, 'workspace', 'members');
  const excluded = tomlArray(cargo, 'workspace', 'exclude').map((e) => `!${e}`);
  return membersOf(scan, /^Cargo\.toml$/, [...members, ...excluded]).map((dir) => ({ dir, kind: 'rust' }));
}

async function mavenMembers(scan: RepoScan, workspaces: string[]): Promise<Found[]> {
  const pom = await scan.read('pom.xml');
  const modules = [...(pom?.match(/<modules>([\s\S]*?)<\/modules>/)?.[1]?.matchAll(/<module>\s*([^<\s]+)\s*<\/module>/g) ?? [])].map((m) => m[1]!);
  if (!modules.length) return [];
  workspaces.push('pom.xml <modules>');
  return membersOf(scan, /^pom\.xml$/, modules).map((dir) => ({ dir, kind: 'maven' }));
}

async function gradleMembers(scan: RepoScan, workspaces: string[]): Promise<Found[]> {
  const file = ['settings.gradle.kts', 'settings.gradle'].find((f) => scan.has(f));
  const settings = file ? await scan.read(file) : undefined;
  if (!file || settings === undefined) return [];
  const included: string[] = [];
  for (const m of settings.matchAll(/\binclude\b\s*\(?([^)\n]*)\)?/g)) {
    for (const q of m[1]!.matchAll(/["']:?([^"']+)["']/g)) included.push(q[1]!.replace(/:/g, '/'));
  }
  if (!included.length) return [];
  workspaces.push(`${file} include`);
  return membersOf(scan, /^build\.gradle(\.kts)?$/, included).map((dir) => ({ dir, kind: 'gradle' }));
}

function pythonMembers(scan: RepoScan, workspaces: string[]): Found[] {
  const dirs = scan.files.filter((f) => f.endsWith('/pyproject.toml')).map(dirOf);
  if (dirs.length) workspaces.push('pyproject.toml in subdirectories');
  return dirs.map((dir) => ({ dir, kind: 'python' }));
}

const EXT: [RegExp, Language][] = [
  [/\.(ts|tsx|mts|cts)$/, 'typescript'],
  [/\.(js|jsx|mjs|cjs)$/, 'javascript'],
  [/\.py$/, 'python'],
  [/\.go$/, 'go'],
  [/\.rs$/, 'rust'],
  [/\.java$/, 'java'],
  [/\.(kt|kts)$/, 'kotlin'],
  [/\.swift$/, 'swift'],
  [/\.rb$/, 'ruby'],
  [/\.(c|cc|cpp|cxx|h|hpp)$/, 'c/c++'],
];
const MANIFEST: [RegExp, Language][] = [
  [/(^|\/)tsconfig[^/]*\.json$/, 'typescript'],
  [/(^|\/)package\.json$/, 'javascript'],
  [/(^|\/)(pyproject\.toml|setup\.py|requirements[^/]*\.txt)$/, 'python'],
  [/(^|\/)go\.mod$/, 'go'],
  [/(^|\/)Cargo\.toml$/, 'rust'],
  [/(^|\/)(pom\.xml|build\.gradle)$/, 'java'],
  [/(^|\/)build\.gradle\.kts$/, 'kotlin'],
  [/(^|\/)Package\.swift$/, 'swift'],
  [/(^|\/)Gemfile$/, 'ruby'],
  [/(^|\/)CMakeLists\.txt$/, 'c/c++'],
];

export function languagesOf(files: readonly string[]): Language[] {
  const found = new Set<Language>();
  for (const f of files) {
    for (const [re, lang] of EXT) if (re.test(f)) found.add(lang);
    for (const [re, lang] of MANIFEST) if (re.test(f)) found.add(lang);
  }
  return [...found].sort();
}

export const filesUnder = (files: readonly string[], dir: string): string[] => (dir === '.' ? [...files] : files.filter((f) => f.startsWith(`${dir}/`)));

async function describe(scan: RepoScan, dir: string, languages: Language[]): Promise<string> {
  const at = (f: string) => (dir === '.' ? f : `${dir}/${f}`);
  const pkg = parseJson(await scan.read(at('package.json'))) as { name?: string; description?: string } | undefined;
  const name = pkg?.name ?? (dir === '.' ? path.posix.basename(scan.root) : dir);
  const what = pkg?.description ? `: ${pkg.description}` : '';
  return `${name}${what} (${languages.length ? languages.join(', ') : 'no recognised language'})`.slice(0, 500);
}

const CONFIG_PACKAGE = /(eslint|prettier|lint|biome|tsconfig|config|tooling|style)/i;

/** Directories of the checkout's own packages whose name says they hold shared tool configuration, by package name. */
async function configPackages(scan: RepoScan): Promise<Map<string, string>> {
  const byName = new Map<string, string>();
  for (const f of scan.files) {
    if (!f.endsWith('/package.json')) continue;
    const name = (parseJson(await scan.read(f)) as { name?: unknown } | undefined)?.name;
    if (typeof name === 'string' && CONFIG_PACKAGE.test(name)) byName.set(name, dirOf(f));
  }
  return byName;
}

async function sharedConfigOf(scan: RepoScan, dir: string, packages: Map<string, string>): Promise<string[]> {
  if (!packages.size) return [];
  const pkg = parseJson(await scan.read(dir === '.' ? 'package.json' : `${dir}/package.json`)) as Record<string, unknown> | undefined;
  const names = ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((k) => Object.keys((pkg?.[k] as object | undefined) ?? {}));
  const dirs = names.map((n) => packages.get(n)).filter((d): d is string => d !== undefined && d !== dir);
  return dirs.flatMap((d) => filesUnder(scan.files, d));
}

/** The applications of the checkout: workspace members of every kind found, else the root. */
export async function discoverApps(scan: RepoScan): Promise<Discovery> {
  const workspaces: string[] = [];
  const found = [
    ...(await npmMembers(scan, workspaces)),
    ...(await goMembers(scan, workspaces)),
    ...(await cargoMembers(scan, workspaces)),
    ...(await mavenMembers(scan, workspaces)),
    ...(await gradleMembers(scan, workspaces)),
    ...pythonMembers(scan, workspaces),
  ];
  const dirs = [...new Set(found.map((f) => f.dir).filter((d) => !NOT_APP.test(d)))].sort();
  const chosen = dirs.length ? dirs : ['.'];
  const apps: App[] = [];
  const packages = dirs.length ? await configPackages(scan) : new Map<string, string>();
  for (const dir of chosen) {
    const files = filesUnder(scan.files, dir);
    const languages = languagesOf(files);
    apps.push({ path: dir, description: await describe(scan, dir, languages), languages, files, sharedConfig: await sharedConfigOf(scan, dir, packages) });
  }
  return { apps, workspaces: workspaces.sort() };
}
