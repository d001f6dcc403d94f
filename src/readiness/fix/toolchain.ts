import type { App, Language } from '../evaluate/apps.js';
import { parseJson } from '../evaluate/parse.js';
import { testRunner } from '../evaluate/checks/testing.js';
import type { FixContext } from './types.js';

/** The commands of one application, as its manifests declare them; each undefined when nothing declares it. */
export interface Commands {
  install?: string;
  build?: string;
  test?: string;
  lint?: string;
  format?: string;
  typecheck?: string;
  run?: string;
}

const at = (app: App, f: string) => (app.path === '.' ? f : `${app.path}/${f}`);

/** npm, pnpm, yarn or bun, from the lockfile next to the manifest or at the root. */
function nodeManager(ctx: FixContext, app: App): 'npm' | 'pnpm' | 'yarn' | 'bun' {
  const has = (f: string) => ctx.scan.has(at(app, f)) || ctx.scan.has(f);
  if (has('pnpm-lock.yaml')) return 'pnpm';
  if (has('yarn.lock')) return 'yarn';
  if (has('bun.lockb') || has('bun.lock')) return 'bun';
  return 'npm';
}

const NODE_INSTALL = { npm: 'npm install', pnpm: 'pnpm install --frozen-lockfile', yarn: 'yarn install --frozen-lockfile', bun: 'bun install' };

async function nodeCommands(ctx: FixContext, app: App): Promise<Commands> {
  const pkg = parseJson(await ctx.scan.read(at(app, 'package.json'))) as { scripts?: Record<string, string> } | undefined;
  const scripts = pkg?.scripts ?? {};
  const pm = nodeManager(ctx, app);
  const script = (...names: string[]) => {
    const name = names.find((n) => scripts[n] !== undefined && !/no test specified/.test(scripts[n]!));
    return name === undefined ? undefined : name === 'test' && pm !== 'bun' ? `${pm} test` : `${pm} run ${name}`;
  };
  const install = pm === 'npm' && (ctx.scan.has(at(app, 'package-lock.json')) || ctx.scan.has('package-lock.json')) ? 'npm ci' : NODE_INSTALL[pm];
  return {
    install,
    build: script('build', 'compile'),
    test: script('test'),
    lint: script('lint'),
    format: script('format:check', 'format', 'fmt'),
    typecheck: script('typecheck', 'type-check', 'tsc'),
    run: script('dev', 'start', 'serve'),
  };
}

async function pythonCommands(ctx: FixContext, app: App): Promise<Commands> {
  const has = (f: string) => ctx.scan.has(at(app, f));
  const pyproject = (await ctx.scan.read(at(app, 'pyproject.toml'))) ?? '';
  const ruff = /\[tool\.ruff/.test(pyproject) || has('ruff.toml') || has('.ruff.toml');
  const install = has('uv.lock')
    ? 'uv sync'
    : has('poetry.lock')
      ? 'poetry install'
      : has('requirements.txt')
        ? 'pip install -r requirements.txt'
        : pyproject
          ? 'pip install -e .'
          : undefined;
  return {
    install,
    test: 'pytest',
    lint: ruff ? 'ruff check .' : has('.flake8') || /\[flake8\]/.test((await ctx.scan.read(at(app, 'setup.cfg'))) ?? '') ? 'flake8' : undefined,
    format: ruff ? 'ruff format --check .' : /\[tool\.black\]/.test(pyproject) ? 'black --check .' : undefined,
    typecheck: /\[tool\.mypy\]/.test(pyproject) || has('mypy.ini') ? 'mypy .' : undefined,
  };
}

function jvmCommands(ctx: FixContext, app: App): Commands | undefined {
  if (ctx.scan.has(at(app, 'pom.xml'))) return { install: 'mvn install -DskipTests', build: 'mvn package', test: 'mvn test' };
  if (!ctx.scan.has(at(app, 'build.gradle')) && !ctx.scan.has(at(app, 'build.gradle.kts'))) return undefined;
  const gradle = ctx.scan.has(at(app, 'gradlew')) || ctx.scan.has('gradlew') ? './gradlew' : 'gradle';
  return { build: `${gradle} build`, test: `${gradle} test` };
}

/**
 * The commands of an application, from its manifests. The test command is the one the evaluator
 * itself discovers (unit_tests_runnable), so AGENTS.md and the evaluator never disagree.
 */
export async function commandsOf(ctx: FixContext, app: App): Promise<Commands> {
  const has = (f: string) => ctx.scan.has(at(app, f));
  let c: Commands;
  if (has('package.json')) c = await nodeCommands(ctx, app);
  else if (app.languages.includes('python')) c = await pythonCommands(ctx, app);
  else if (has('go.mod')) {
    const golangci = ctx.scan.files.some((f) => /(^|\/)\.golangci\.(ya?ml|toml|json)$/.test(f));
    c = {
      install: 'go mod download',
      build: 'go build ./...',
      test: 'go test ./...',
      lint: golangci ? 'golangci-lint run' : 'go vet ./...',
      format: 'gofmt -l .',
    };
  } else if (has('Cargo.toml')) c = { build: 'cargo build', test: 'cargo test', lint: 'cargo clippy --all-targets', format: 'cargo fmt --check' };
  else if (has('Gemfile'))
    c = { install: 'bundle install', test: app.files.some((f) => f.endsWith('_spec.rb')) ? 'bundle exec rspec' : 'bundle exec rake test' };
  else c = jvmCommands(ctx, app) ?? {};
  if (has('Gemfile') && ctx.scan.has(at(app, '.rubocop.yml'))) c.lint = 'bundle exec rubocop';
  if (!c.test) {
    const found = await testRunner(ctx, app);
    if (found) c.test = found.replace(/ \(.*$/, '');
  }
  return c;
}

/** The toolchains a dev container needs, with the version the repository pins where it pins one. */
export interface Toolchain {
  language: 'node' | 'python' | 'go' | 'rust' | 'java' | 'ruby' | 'cpp';
  version?: string;
}

const TOOLCHAIN_OF: Partial<Record<Language, Toolchain['language']>> = {
  javascript: 'node',
  typescript: 'node',
  python: 'python',
  go: 'go',
  rust: 'rust',
  java: 'java',
  kotlin: 'java',
  ruby: 'ruby',
  'c/c++': 'cpp',
};

const firstLine = async (ctx: FixContext, files: string[]) => {
  for (const f of files) {
    const text = await ctx.scan.read(f);
    const v = text?.split('\n')[0]?.trim().replace(/^v/, '');
    if (v) return v;
  }
  return undefined;
};

async function versionOf(ctx: FixContext, language: Toolchain['language']): Promise<string | undefined> {
  if (language === 'node') {
    const pinned = await firstLine(ctx, ['.nvmrc', '.node-version']);
    const engines = (parseJson(await ctx.scan.read('package.json')) as { engines?: { node?: string } } | undefined)?.engines?.node;
    return /^\d+/.exec(pinned ?? engines?.replace(/^[^\d]*/, '') ?? '')?.[0];
  }
  if (language === 'python') return /^\d+\.\d+/.exec((await firstLine(ctx, ['.python-version'])) ?? '')?.[0];
  if (language === 'go') return /^go (\d+\.\d+)/m.exec((await ctx.scan.read('go.mod')) ?? '')?.[1];
  if (language === 'ruby') return /^\d+\.\d+/.exec((await firstLine(ctx, ['.ruby-version'])) ?? '')?.[0];
  return undefined;
}

/** The toolchains of every application, in a fixed order (the languages' order in the evaluator). */
export async function toolchainsOf(ctx: FixContext): Promise<Toolchain[]> {
  const languages = [...new Set(ctx.apps.flatMap((a) => a.languages.map((l) => TOOLCHAIN_OF[l]).filter((l) => l !== undefined)))].sort();
  return Promise.all(languages.map(async (language) => ({ language, version: await versionOf(ctx, language) })));
}
