import { DAY_MS } from '../../../core/days.js';
import { anyOf } from '../patterns.js';
import { git } from '../git.js';
import { apiFailure, type Forge } from '../forge.js';
import { ci, CI_FILE, dep, doc, DOC_FILE, evidenceOutcome, file, firstEvidence, type Rule } from '../evidence.js';
import { appEvidence, appEvidenceWhen, DEPLOYMENT, repoCheck, repoEvidence } from '../define.js';
import { fail, pass, skip, type Check, type CheckContext, type Outcome } from '../types.js';
import { deploymentFrequencyOffline, fastCiOffline, prReviewOffline } from './offline-forge.js';

const ROOT_DOC = /^(README[^/]*|AGENTS\.md|CONTRIBUTING[^/]*)$/i;
export const SETUP_COMMAND = anyOf(
  [
    /(npm|pnpm|yarn|bun) (run )?(dev|start|serve)/,
    /make (setup|dev|run|start|bootstrap)/,
    /docker[- ]compose up/,
    /just (setup|dev)/,
    /\.\/(scripts\/)?(setup|bootstrap|dev)(\.sh)?/,
    /bin\/(setup|dev)/,
    /nix develop/,
    /devbox shell/,
    /cargo run/,
    /go run/,
    /uvicorn/,
    /flask run/,
    /python manage\.py runserver/,
    /rails s(erver)?/,
    /mvn spring-boot:run/,
    /gradlew bootRun/,
    /node dist\/main\.js serve/,
  ],
  { before: /\b/, after: /\b/ },
);

const forgeOf = (ctx: CheckContext): Forge | undefined => ('unavailable' in ctx.forge ? undefined : ctx.forge);
const unavailable = (ctx: CheckContext) => ('unavailable' in ctx.forge ? ctx.forge.unavailable : '');

type Offline = (ctx: CheckContext, why: string) => Promise<Outcome>;

/**
 * A check that reads the forge. When the forge is out of reach or refuses, `offline` judges from
 * the checkout and its history instead (saying so); without one the criterion is skipped with the reason.
 */
export const forgeCheck = (id: string, run: (forge: Forge, ctx: CheckContext) => Promise<Outcome>, offline?: Offline): Check =>
  repoCheck(id, async (ctx) => {
    const forge = forgeOf(ctx);
    if (!forge) return offline ? offline(ctx, unavailable(ctx)) : skip(unavailable(ctx));
    try {
      return await run(forge, ctx);
    } catch (e) {
      return offline ? offline(ctx, apiFailure(e)) : skip(apiFailure(e));
    }
  });

const FLAGS: Rule[] = [
  dep(
    'feature-flag SDK',
    'launchdarkly-node-server-sdk',
    '@launchdarkly/node-server-sdk',
    'launchdarkly-js-client-sdk',
    'launchdarkly-react-client-sdk',
    'launchdarkly-server-sdk',
    'statsig-node',
    'statsig-js',
    '@statsig/js-client',
    'unleash-client',
    '@unleash/proxy-client-react',
    'unleash-proxy-client',
    '@growthbook/growthbook',
    'growthbook',
    'flagsmith',
    'configcat-node',
    'configcat-js',
    '@openfeature/server-sdk',
    '@openfeature/web-sdk',
    'openfeature-sdk',
    'flipper',
    'django-waffle',
    'ff4j-core',
    'togglz-core',
    'github.com/Unleash/unleash-client-go',
    'github.com/launchdarkly/go-server-sdk',
  ),
  file('feature-flag definitions', /(^|\/)(feature[-_]?flags?|flags)\.(ya?ml|json|ts|js|py|go|rb)$/i),
];

const INFRA: Rule[] = [...DEPLOYMENT, ci('deploy workflow', /\bdeploy/i)];

const infraCheck = (id: string, rules: Rule[]): Check =>
  repoCheck(id, async (ctx) => {
    if (!(await firstEvidence(ctx, ctx.scan.files, INFRA)))
      return skip('no deployment configuration (Dockerfile, Kubernetes, Helm, Terraform, platform config, deploy workflow): not an infrastructure repository');
    return evidenceOutcome(ctx, ctx.scan.files, rules);
  });

const singleApp = (ctx: CheckContext) =>
  ctx.apps.length <= 1 ? skip(`single application (${ctx.apps[0]?.path ?? '.'}): monorepo tooling does not apply`) : undefined;

export const buildChecks: Check[] = [
  repoEvidence('build_cmd_doc', [
    {
      file: /^(README[^/]*|AGENTS\.md)$/i,
      content: anyOf(
        [
          /(npm|pnpm|yarn|bun) (ci|install|i|run build|build)/,
          /pip install/,
          /uv sync/,
          /poetry install/,
          /go build/,
          /go install/,
          /cargo build/,
          /mvn (install|package|verify)/,
          /\.?\/?gradlew? build/,
          /make( build| install| all)?$/,
          /bundle install/,
          /cmake (--build|-S|-B)/,
          /bazel build/,
        ],
        { before: /\b/, after: /\b/, flags: 'm' },
      ),
      what: 'build/install command',
    },
  ]),
  repoCheck('deps_pinned', async (ctx) => {
    const lock = await firstEvidence(ctx, ctx.scan.files, [
      file(
        'lockfile',
        anyOf(
          [
            /package-lock\.json/,
            /npm-shrinkwrap\.json/,
            /pnpm-lock\.yaml/,
            /yarn\.lock/,
            /bun\.lockb?/,
            /uv\.lock/,
            /poetry\.lock/,
            /Pipfile\.lock/,
            /pdm\.lock/,
            /go\.sum/,
            /Cargo\.lock/,
            /Gemfile\.lock/,
            /gradle\.lockfile/,
            /composer\.lock/,
            /conan\.lock/,
            /packages\.lock\.json/,
          ],
          { before: /(^|\/)/, after: /$/ },
        ),
      ),
    ]);
    if (lock) return pass(`found ${lock}`);
    const reqs = ctx.scan.files.filter((f) => /(^|\/)requirements[^/]*\.txt$/.test(f));
    for (const f of reqs) {
      const lines = ((await ctx.scan.read(f)) ?? '')
        .split('\n')
        .map((l) => l.replace(/#.*/, '').trim())
        .filter((l) => l && !l.startsWith('-'));
      if (lines.length && lines.every((l) => /==/.test(l))) return pass(`${f} pins every requirement with ==`);
    }
    const manifests = ctx.scan.files.filter((f) =>
      /(^|\/)(package\.json|pyproject\.toml|requirements[^/]*\.txt|go\.mod|Cargo\.toml|Gemfile|pom\.xml|build\.gradle(\.kts)?)$/.test(f),
    );
    if (!manifests.length) return pass('no dependency manifest: nothing to pin');
    return fail(`no lockfile committed and ranges not exact-pinned; manifests: ${manifests.slice(0, 5).join(', ')}`);
  }),
  repoCheck('vcs_cli_tools', async (ctx) => {
    const tools = await ctx.probe.vcsCli();
    const where = ctx.probe.where?.() ?? 'the evaluating machine';
    const ok = tools.find((t) => t.installed && t.authenticated);
    const checked = `a property of ${where}, not of the repository; checked \`gh auth status\` and \`glab auth status\``;
    if (ok) return pass(`${ok.tool} is installed and authenticated: ${checked}`);
    const state = tools.map((t) => `${t.tool}: ${t.installed ? 'installed, not authenticated' : 'not on PATH'}`).join('; ');
    return fail(`no authenticated forge CLI (${state}): ${checked}`);
  }),
  forgeCheck(
    'automated_pr_review',
    async (forge) => {
      const pulls = await forge.mergedPulls(10);
      if (!pulls.length) return skip(`no merged pull requests on ${forge.name} to inspect`);
      const bots = await forge.reviewBots(pulls.map((p) => p.number));
      return bots.length
        ? pass(`bots reviewed recent pull requests of ${forge.name}: ${bots.join(', ')}`)
        : fail(`no bot reviews or comments on the last ${pulls.length} merged pull requests of ${forge.name}`);
    },
    prReviewOffline,
  ),
  repoCheck('agentic_development', async (ctx) => {
    const log = await git(ctx.scan.root, ['log', '-100', '--format=%B'], { allowFailure: true });
    const trailer = /^co-authored-by:.*\b(claude|droid|factory|copilot|cursor|codex|devin|aider|openai|anthropic|gemini|sweep)\b.*$/im.exec(log);
    if (trailer) return pass(`AI co-author trailer in the last 100 commits: "${trailer[0].trim().slice(0, 120)}"`);
    return evidenceOutcome(ctx, ctx.scan.files, [
      file('agent configuration', /^(\.factory|\.claude|\.cursor|\.codex)\/.+|^\.cursorrules$|^CLAUDE\.md$/),
      ci('agent workflow', /droid exec|claude-code-action|anthropics\/|openai\/codex|copilot-swe-agent|factory-ai/i),
    ]);
  }),
  forgeCheck(
    'fast_ci_feedback',
    async (forge) => {
      const pulls = await forge.mergedPulls(10);
      const minutes: number[] = [];
      for (const p of pulls) {
        const m = await forge.checkMinutes(p.headSha);
        if (m !== undefined) minutes.push(m);
      }
      if (!minutes.length) return skip(`no check runs on recent merged pull requests of ${forge.name}`);
      const avg = minutes.reduce((a, b) => a + b, 0) / minutes.length;
      const text = `average CI duration ${avg.toFixed(1)} min over ${minutes.length} merged pull requests of ${forge.name}`;
      return avg < 10 ? pass(text) : fail(`${text} (10 min or more)`);
    },
    fastCiOffline,
  ),
  repoCheck('build_performance_tracking', async (ctx) => {
    if (!ctx.scan.files.some((f) => CI_FILE.test(f))) return skip('no CI configuration: no build to measure');
    return evidenceOutcome(ctx, ctx.scan.files, [
      file('build cache configuration', /^(turbo\.json|nx\.json|\.bazelrc)$/),
      ci(
        'build caching in CI',
        /actions\/cache|cache-from|cache-to|sccache|ccache|uv cache|\bcache:\s*['"]?(npm|pnpm|yarn|pip|gradle|maven|poetry)|Swatinem\/rust-cache|gradle\/actions\/setup-gradle/,
      ),
      ci('build timing in CI', /build[-_ ]?(time|duration|metrics)|--profile|buildevents/i),
    ]);
  }),
  forgeCheck(
    'deployment_frequency',
    async (forge) => {
      const dates = (await forge.releaseDates()).map(Date.parse).filter(Number.isFinite);
      if (!dates.length) return skip(`no releases on ${forge.name}`);
      const since = Date.now() - 28 * DAY_MS;
      const recent = dates.filter((d) => d >= since).length;
      const text = `${recent} releases of ${forge.name} in the last 4 weeks`;
      return recent >= 8 ? pass(`${text} (2 or more a week)`) : fail(`${text} (fewer than 2 a week)`);
    },
    deploymentFrequencyOffline,
  ),
  repoEvidence('single_command_setup', [
    { file: ROOT_DOC, content: SETUP_COMMAND, what: 'setup/run command' },
    { file: DOC_FILE, content: SETUP_COMMAND, what: 'setup/run command' },
  ]),
  repoEvidence('feature_flag_infrastructure', FLAGS),
  repoEvidence('release_notes_automation', [
    file(
      'release notes tool config',
      anyOf(
        [
          /\.changeset\/config\.json/,
          /release-please-config\.json/,
          /\.release-please-manifest\.json/,
          /\.releaserc[^/]*/,
          /release\.config\.[cm]?js/,
          /\.github\/release\.ya?ml/,
          /cliff\.toml/,
          /\.goreleaser\.ya?ml/,
          /\.towncrier\.toml/,
          /changelog\.d\/.+/,
        ],
        { before: /^/, after: /$/ },
      ),
    ),
    dep(
      'release notes tool',
      'semantic-release',
      '@changesets/cli',
      'standard-version',
      'release-it',
      'towncrier',
      'git-cliff',
      'auto-changelog',
      'conventional-changelog-cli',
    ),
    ci(
      'release notes generated in CI',
      /generate_release_notes|generate-notes|release-please|changesets\/action|semantic-release|git-cliff|conventional-changelog/,
    ),
  ]),
  infraCheck('progressive_rollout', [
    {
      file: /\.(ya?ml|json|tf)$/,
      content: /^kind:\s*(Rollout|Canary)\b|\bcanary\b|traffic[-_]?split|progressive|blue[-/ ]?green|setWeight/im,
      what: 'canary or percentage rollout',
    },
    doc('documented progressive rollout', /\bcanary\b|percentage rollout|ring deployment|progressive (delivery|rollout)/i),
  ]),
  infraCheck('rollback_automation', [
    ci('rollback in CI', /rollback|roll back|rollout undo/i),
    file('rollback script', /(^|\/)rollback[^/]*\.(sh|ya?ml|py|ts|js)$/i),
    doc('documented rollback', /rollback|roll back/i),
  ]),
  repoCheck('monorepo_tooling', async (ctx) => {
    const single = singleApp(ctx);
    if (single) return single;
    const tools = ctx.workspaces.filter((w) => w !== 'pyproject.toml in subdirectories');
    if (tools.length) return pass(`${ctx.apps.length} applications declared by ${tools.join(', ')}`);
    return evidenceOutcome(ctx, ctx.scan.files, [
      file('monorepo tool config', /^(nx\.json|turbo\.json|lerna\.json|WORKSPACE(\.bazel)?|MODULE\.bazel|pants\.toml|rush\.json)$/),
      { file: /^pyproject\.toml$/, content: /^\[tool\.uv\.workspace\]/m, what: 'uv workspace' },
    ]);
  }),
  appEvidenceWhen(
    'heavy_dependency_detection',
    [dep('bundler', 'webpack', 'vite', 'rollup', 'esbuild', 'parcel', 'next', 'nuxt', '@angular/cli', 'react-scripts', '@sveltejs/kit', 'astro')],
    'no bundler in the application: not a bundled app',
    [
      file('bundle size config', /(^|\/)(\.size-limit[^/]*|lighthouserc[^/]*|budget\.json|\.bundlewatch[^/]*)$/),
      dep(
        'bundle analysis tool',
        'size-limit',
        '@size-limit/preset-app',
        'webpack-bundle-analyzer',
        'rollup-plugin-visualizer',
        'source-map-explorer',
        'bundlewatch',
        'bundlesize',
        '@next/bundle-analyzer',
        'vite-bundle-visualizer',
        '@lhci/cli',
      ),
    ],
  ),
  appEvidence('unused_dependencies_detection', [
    file('knip or depcheck config', /(^|\/)(\.?knip\.jsonc?|knip\.config\.[cm]?[jt]s|\.depcheckrc[^/]*)$/),
    dep('unused-dependency tool', 'depcheck', 'knip', 'deptry', 'cargo-udeps', 'cargo-machete'),
    ci('unused-dependency check in CI', /go mod tidy|dependency:analyze|\b(depcheck|knip|deptry|cargo[- ]udeps|cargo[- ]machete)\b/),
    { file: /(^|\/)Makefile$/, content: /go mod tidy/, what: 'go mod tidy in Makefile' },
  ]),
  repoCheck('version_drift_detection', async (ctx) => {
    const single = singleApp(ctx);
    if (single) return single;
    return evidenceOutcome(ctx, ctx.scan.files, [
      file('syncpack config', /^\.syncpackrc[^/]*$|^syncpack\.config\.[cm]?js$/),
      dep('version drift tool', 'syncpack', '@manypkg/cli'),
      {
        file: /^(renovate\.json5?|\.renovaterc(\.json)?|\.github\/renovate\.json5?)$/,
        content: /groupName|group:monorepos|group:all/,
        what: 'Renovate grouping',
      },
      ci('version drift check in CI', /syncpack|manypkg|yarn constraints|pnpm dedupe --check/),
    ]);
  }),
  repoEvidence('release_automation', [
    file('release tool config', /^(\.goreleaser\.ya?ml|release-please-config\.json|\.releaserc[^/]*|release\.config\.[cm]?js|\.changeset\/config\.json)$/),
    ci(
      'release or deploy automation in CI',
      anyOf(
        [
          /semantic-release/,
          /release-please/,
          /changesets\/action/,
          /goreleaser/,
          /npm publish/,
          /docker\/build-push-action/,
          /docker push/,
          /twine upload/,
          /pypa\/gh-action-pypi-publish/,
          /cargo publish/,
          /gh release create/,
          /softprops\/action-gh-release/,
          /\bdeploy\b/,
        ],
        { flags: 'i' },
      ),
    ),
    file('GitOps manifests', /(^|\/)(argocd|flux)\/.+\.ya?ml$/),
  ]),
  repoCheck('dead_feature_flag_detection', async (ctx) => {
    const flags = await firstEvidence(ctx, ctx.scan.files, FLAGS);
    if (!flags) return skip('no feature-flag system (prerequisite feature_flag_infrastructure): nothing to clean up');
    return evidenceOutcome(ctx, ctx.scan.files, [
      ci('stale-flag detection in CI', /ld-find-code-refs|find-code-references|piranha|stale[-_ ]flags?|flag[-_ ]clean-?up/i),
      dep('flag clean-up tool', 'piranha', 'polyglot-piranha'),
      doc('documented flag clean-up', /stale flags?|flag clean-?up|remov(e|ing) (old|stale|unused) (feature )?flags|flag (expiry|expiration|lifecycle)/i),
    ]);
  }),
];
