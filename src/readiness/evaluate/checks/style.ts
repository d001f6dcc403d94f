import { appFiles, appWhere, ci, dep, doc, evidenceOutcome, file, firstEvidence, HOOK_FILE, JVM_BUILD, type Rule } from '../evidence.js';
import { hookOutcome } from './hooks.js';
import { appCheck, appEvidence, appEvidenceWhen, DATABASE, repoEvidence } from '../define.js';
import { parse as parseYaml } from 'yaml';
import { fail, pass, skip, type Check, type CheckContext, type Outcome } from '../types.js';

const ESLINT = /(^|\/)(\.eslintrc[^/]*|eslint\.config\.[cm]?[jt]s)$/;
const GOLANGCI = /(^|\/)\.golangci\.(ya?ml|toml|json)$/;
const PY_CONFIG = /(^|\/)(pyproject\.toml|setup\.cfg|tox\.ini|\.flake8|\.pylintrc|pylintrc|ruff\.toml|\.ruff\.toml|mypy\.ini|\.mypy\.ini)$/;
const SONAR = file('SonarQube configuration', /(^|\/)sonar-project\.properties$/);
const STATICALLY_TYPED = ['go', 'rust', 'java', 'kotlin', 'swift', 'c/c++'] as const;
const SWIFTLINT = /(^|\/)\.swiftlint\.ya?ml$/;
const CHECKSTYLE = /(^|\/)(checkstyle[^/]*\.xml|config\/checkstyle\/[^/]+\.xml)$/;
const PMD_RULESET = /(^|\/)(pmd[^/]*\.xml|ruleset[^/]*\.xml|config\/pmd\/[^/]+\.xml)$/;

/** Java and Swift linters configured as build plugins or packages, not only as files. */
const jvmAndSwiftLint: Rule[] = [
  { file: JVM_BUILD, content: /maven-checkstyle-plugin|\bcheckstyle\b/, what: 'Checkstyle plugin' },
  { file: JVM_BUILD, content: /maven-pmd-plugin|\bid\s*\(?\s*["']pmd["']|^\s*pmd\s*\{|apply plugin: ['"]pmd['"]/m, what: 'PMD plugin' },
  { file: JVM_BUILD, content: /spotbugs-maven-plugin|com\.github\.spotbugs|findbugs/, what: 'SpotBugs plugin' },
  { file: JVM_BUILD, content: /error_prone_core|net\.ltgt\.errorprone|-Xplugin:ErrorProne/, what: 'Error Prone' },
  { file: JVM_BUILD, content: /io\.gitlab\.arturbosch\.detekt|\bdetekt\b|ktlint/, what: 'Kotlin linter plugin' },
  { file: /(^|\/)Package\.swift$/, content: /SwiftLint|SwiftLintPlugins/, what: 'SwiftLint build plugin' },
];

const lint: Rule[] = [
  file('ESLint config', ESLINT),
  { file: /(^|\/)package\.json$/, content: /"eslintConfig"\s*:/, what: 'ESLint config in package.json' },
  file('Biome config', /(^|\/)biome\.jsonc?$/),
  file('Ruff config', /(^|\/)\.?ruff\.toml$/),
  { file: PY_CONFIG, content: /^\[(tool\.ruff|flake8|tool\.pylint[^\]]*|pylint[^\]]*)\]/m, what: 'Python linter section' },
  file('flake8 config', /(^|\/)\.flake8$/),
  file('Pylint config', /(^|\/)\.?pylintrc$/),
  file('golangci-lint config', GOLANGCI),
  file('Clippy config', /(^|\/)\.?clippy\.toml$/),
  file('RuboCop config', /(^|\/)\.rubocop\.yml$/),
  file('clang-tidy ruleset', /(^|\/)\.clang-tidy$/),
  file('Checkstyle config', CHECKSTYLE),
  file('PMD ruleset', PMD_RULESET),
  file('SpotBugs filter', /(^|\/)spotbugs[^/]*\.xml$/),
  file('detekt config', /(^|\/)detekt[^/]*\.ya?ml$/),
  file('SwiftLint config', SWIFTLINT),
  ...jvmAndSwiftLint,
  SONAR,
  {
    file: /(^|\/)package\.json$/,
    content: /"lint[^"]*"\s*:\s*"[^"]*\b(eslint|biome|oxlint|next lint|xo|standard|tslint)\b/,
    what: 'lint script',
  },
  dep('shared lint config package', 'eslint-config-next', 'eslint-config-airbnb', 'eslint-config-standard', '@vercel/style-guide'),
  ci(
    'linter in CI',
    /\b(eslint|ruff check|ruff|flake8|pylint|golangci-lint|cargo clippy|rubocop|clang-tidy|staticcheck|swiftlint|checkstyle|spotbugs|pmd:check|detekt|ktlint)\b/,
  ),
];

const typeChecker: Rule[] = [
  file('TypeScript config', /(^|\/)tsconfig[^/]*\.json$/),
  file('mypy config', /(^|\/)\.?mypy\.ini$/),
  file('Pyright config', /(^|\/)pyrightconfig\.json$/),
  { file: PY_CONFIG, content: /^\[(tool\.mypy|mypy|tool\.pyright)\]/m, what: 'type checker section' },
  file('Sorbet config', /(^|\/)sorbet\/config$/),
];

const formatter: Rule[] = [
  file('Prettier config', /(^|\/)(\.prettierrc[^/]*|prettier\.config\.[cm]?[jt]s)$/),
  { file: /(^|\/)package\.json$/, content: /"prettier"\s*:/, what: 'Prettier in package.json' },
  file('Biome config', /(^|\/)biome\.jsonc?$/),
  { file: PY_CONFIG, content: /^\[(tool\.black|tool\.ruff\.format|tool\.isort|tool\.yapf)\]/m, what: 'Python formatter section' },
  file('clang-format config', /(^|\/)\.clang-format$/),
  file('Swift formatter config', /(^|\/)(\.swiftformat|\.swift-format)$/),
  file('rustfmt config', /(^|\/)\.?rustfmt\.toml$/),
  { file: GOLANGCI, content: /\b(gofmt|goimports|gofumpt)\b/, what: 'Go formatter in golangci-lint' },
  { file: /(^|\/)(build\.gradle(\.kts)?|pom\.xml)$/, content: /spotless|ktlint|google-java-format/, what: 'JVM formatter plugin' },
  ci(
    'formatter in CI',
    /\b(prettier|black|ruff format|gofmt|goimports|gofumpt|cargo fmt|rustfmt|clang-format|rubocop -a|ktlint|spotless|swiftformat|swift-format)\b/,
  ),
  { file: HOOK_FILE, content: /\b(prettier|black|ruff-format|gofmt|goimports|rustfmt|cargo fmt|clang-format)\b/, what: 'formatter in hooks' },
];

const NAMING: Rule[] = [
  { file: ESLINT, content: /naming-convention|\bcamelcase\b|id-match/, what: 'ESLint naming rule' },
  dep('pep8-naming', 'pep8-naming'),
  { file: /(^|\/)(pyproject\.toml|\.?ruff\.toml)$/, content: /select\s*=\s*\[[^\]]*["']N["']/, what: 'Ruff pep8-naming rules (N)' },
  { file: GOLANGCI, content: /\b(revive|stylecheck)\b/, what: 'golangci-lint naming linter' },
  { file: /(^|\/)\.rubocop\.yml$/, content: /^Naming\//m, what: 'RuboCop Naming cops' },
  {
    file: CHECKSTYLE,
    content: /name="(TypeName|MethodName|ConstantName|LocalVariableName|MemberName|ParameterName|PackageName|AbbreviationAsWordInName)"/,
    what: 'Checkstyle naming module',
  },
  { file: PMD_RULESET, content: /category\/java\/codestyle\.xml|NamingConventions/, what: 'PMD naming rules' },
  { file: JVM_BUILD, content: /google_checks\.xml|sun_checks\.xml/, what: 'Checkstyle built-in ruleset with naming modules' },
  { file: /(^|\/)detekt[^/]*\.ya?ml$/, content: /^naming:/m, what: 'detekt naming rule set' },
  { file: /(^|\/)\.editorconfig$/, content: /Name(Format|Check)|dotnet_naming_rule|ktlint_standard/, what: 'naming rules' },
  { file: /^(AGENTS\.md|CONTRIBUTING[^/]*)$/, content: /naming/i, what: 'written naming convention' },
];

/** SwiftLint turns identifier_name and type_name on unless the configuration disables them (or `only_rules` leaves them out). */
async function swiftLintNaming(ctx: CheckContext, files: readonly string[]): Promise<Outcome | undefined> {
  for (const f of files.filter((x) => SWIFTLINT.test(x))) {
    type SwiftLint = { disabled_rules?: unknown; only_rules?: unknown } | null;
    let cfg: SwiftLint;
    try {
      cfg = parseYaml((await ctx.scan.read(f)) ?? '') as SwiftLint;
    } catch {
      continue;
    }
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
    const on = ['identifier_name', 'type_name'].filter(
      (r) => !list(cfg?.disabled_rules).includes(r) && (cfg?.only_rules === undefined || list(cfg.only_rules).includes(r)),
    );
    if (on.length) return pass(`${f}: SwiftLint naming rules ${on.join(' and ')} are on (default rules, not disabled)`);
  }
  return undefined;
}

export const styleChecks: Check[] = [
  appEvidence('lint_config', lint),
  appCheck('type_check', async (ctx, app) => {
    const found = await firstEvidence(ctx, appFiles(ctx, app), typeChecker);
    if (found) return pass(`found ${found}`);
    const typed = app.languages.filter((l) => (STATICALLY_TYPED as readonly string[]).includes(l));
    if (typed.length) return pass(`statically typed language credited by default: ${typed.join(', ')}`);
    return fail(`no type checker config in ${appWhere(app)}; looked for tsconfig.json, mypy/pyright config, Sorbet`);
  }),
  appEvidence('formatter', formatter),
  appCheck('pre_commit_hooks', hookOutcome),
  appCheck('strict_typing', async (ctx, app) => {
    const files = appFiles(ctx, app);
    const strictByDefault = app.languages.filter((l) => l === 'go' || l === 'rust' || l === 'swift');
    const tsconfigs = files.filter((f) => /(^|\/)tsconfig[^/]*\.json$/.test(f));
    for (const f of tsconfigs) if (/"strict"\s*:\s*true/.test((await ctx.scan.read(f)) ?? '')) return pass(`${f} sets "strict": true`);
    const py = await firstEvidence(ctx, files, [
      { file: PY_CONFIG, content: /^\s*strict\s*=\s*(true|True)\b/m, what: 'mypy strict' },
      { file: /(^|\/)(pyproject\.toml|pyrightconfig\.json)$/, content: /typeCheckingMode"?\s*[=:]\s*"strict"/, what: 'Pyright strict' },
    ]);
    if (py) return pass(`found ${py}`);
    if (strictByDefault.length) return pass(`strict by default: ${strictByDefault.join(', ')}`);
    if (tsconfigs.length) return fail(`${tsconfigs.join(', ')} without "strict": true`);
    const mypy = await firstEvidence(ctx, files, typeChecker);
    if (mypy) return fail(`type checker configured (${mypy}) without strict mode`);
    return skip(`no type checker configured in ${appWhere(app)} and not a strictly typed language: strictness is unclear`);
  }),
  appCheck(
    'naming_consistency',
    async (ctx, app) => (await swiftLintNaming(ctx, appFiles(ctx, app))) ?? evidenceOutcome(ctx, appFiles(ctx, app), NAMING, appWhere(app)),
  ),
  appEvidence('cyclomatic_complexity', [
    { file: ESLINT, content: /["']?complexity["']?\s*:|sonarjs\/cognitive-complexity/, what: 'ESLint complexity rule' },
    { file: GOLANGCI, content: /\b(gocyclo|cyclop|gocognit)\b/, what: 'golangci-lint complexity linter' },
    { file: PY_CONFIG, content: /C901|max-complexity|mccabe/, what: 'Python complexity rule' },
    dep('complexity tool', 'radon', 'lizard', 'xenon', 'gocyclo', 'eslint-plugin-sonarjs'),
    { file: /(^|\/)\.?clippy\.toml$/, content: /cognitive-complexity-threshold/, what: 'Clippy complexity threshold' },
    { file: /(^|\/)\.rubocop\.yml$/, content: /Metrics\/(Cyclomatic|Perceived)Complexity/, what: 'RuboCop complexity cop' },
    { file: /(^|\/)\.clang-tidy$/, content: /readability-function-cognitive-complexity/, what: 'clang-tidy complexity check' },
    SONAR,
    ci('complexity tool in CI', /\b(radon|lizard|xenon|gocyclo|cyclop)\b/),
  ]),
  repoEvidence('large_file_detection', [
    { file: HOOK_FILE, content: /check-added-large-files/, what: 'pre-commit check-added-large-files' },
    { file: /(^|\/)\.gitattributes$/, content: /filter=lfs/, what: 'Git LFS' },
    { file: ESLINT, content: /max-lines/, what: 'ESLint max-lines' },
    ci('file size check in CI', /check-added-large-files|large[-_ ]files?|file[-_ ]size|max[-_]file[-_]size/i),
  ]),
  appEvidence('dead_code_detection', [
    file('knip config', /(^|\/)(\.?knip\.jsonc?|knip\.config\.[cm]?[jt]s|\.knip\.ts)$/),
    dep('unused-code tool', 'knip', 'ts-prune', 'ts-unused-exports', 'vulture', 'deadcode'),
    { file: GOLANGCI, content: /\b(unused|deadcode)\b/, what: 'golangci-lint unused' },
    { file: PY_CONFIG, content: /^\[tool\.vulture\]/m, what: 'vulture config' },
    file('Periphery config', /(^|\/)\.periphery\.yml$/),
    SONAR,
    ci('unused-code tool in CI', /\b(knip|ts-prune|vulture|staticcheck|deadcode|periphery)\b/),
  ]),
  appEvidence('duplicate_code_detection', [
    file('jscpd config', /(^|\/)\.jscpd\.json$/),
    dep('duplicate-code tool', 'jscpd', 'dupl'),
    { file: GOLANGCI, content: /\bdupl\b/, what: 'golangci-lint dupl' },
    { file: /(^|\/)(pom\.xml|build\.gradle(\.kts)?)$/, content: /\bcpd\b|maven-pmd-plugin|pmd/i, what: 'PMD CPD' },
    { file: PY_CONFIG, content: /duplicate-code|R0801/, what: 'pylint duplicate-code' },
    SONAR,
    ci('duplicate-code tool in CI', /\b(jscpd|pmd cpd|cpd|dupl)\b/),
  ]),
  appCheck('code_modularization', async (ctx, app) => {
    const sources = app.files.filter((f) => /\.(ts|tsx|js|py|go|java|kt|rb|c|cpp)$/.test(f));
    if (app.languages.length === 1 && app.languages[0] === 'rust') return skip('Rust crates enforce module privacy in the language: not applicable');
    if (sources.length < 20) return skip(`small project (${sources.length} source files in ${app.path}): module boundaries are not applicable`);
    const goInternal = app.files.find((f) => /(^|\/)internal\/[^/]+\.go$/.test(f));
    if (goInternal) return pass(`Go internal/ package enforces the boundary: ${goInternal}`);
    return evidenceOutcome(
      ctx,
      appFiles(ctx, app),
      [
        file('dependency-cruiser config', /(^|\/)\.dependency-cruiser\.[cm]?js(on)?$/),
        dep('boundary tool', 'dependency-cruiser', 'eslint-plugin-boundaries', 'import-linter', 'archunit', 'archunit-junit5', '@nx/enforce-module-boundaries'),
        { file: ESLINT, content: /no-restricted-paths|no-restricted-imports|boundaries\/|enforce-module-boundaries/, what: 'ESLint import boundary rule' },
        file('import-linter config', /(^|\/)\.importlinter$/),
        { file: PY_CONFIG, content: /^\[tool\.importlinter\]/m, what: 'import-linter config' },
      ],
      appWhere(app),
    );
  }),
  repoEvidence('tech_debt_tracking', [
    // A tool that scans for markers, or a search command naming them; the bare word in a workflow is not one.
    ci('TODO/FIXME scanner in CI', /\b(leasot|tickgit|todo-to-issue(-action)?|todocheck|fixme-checker|pdd)\b|\b(grep|rg|git grep)\b[^\n]*\b(TODO|FIXME)\b/i),
    { file: ESLINT, content: /no-warning-comments/, what: 'ESLint no-warning-comments' },
    { file: PY_CONFIG, content: /\bfixme\b|W0511|\bFIX\d{3}|["']TD["']/, what: 'Python TODO rule' },
    { file: GOLANGCI, content: /\bgodox\b/, what: 'golangci-lint godox' },
    SONAR,
  ]),
  appEvidenceWhen('n_plus_one_detection', DATABASE, 'no database driver, ORM or migrations in the application: N+1 detection does not apply', [
    dep('N+1 detection', 'bullet', 'nplusone', 'dataloader', 'graphql-batch', 'django-zen-queries', 'prosopite', 'hibernate-types', 'sqlalchemy-n-plus-one'),
    doc('documented N+1 query analysis', /n\s*\+\s*1/i),
  ]),
];
