// The readiness model: every criterion with its pillar, level, scope and whether it may be
// skipped. The summary endpoint reads levels and pillars from here, and the evaluator's checks
// name these ids. Generated once from the model's published tables; edit here.

export const PILLARS = [
  'Style & Validation',
  'Build System',
  'Testing',
  'Documentation',
  'Dev Environment',
  'Debugging & Observability',
  'Security',
  'Task Discovery',
  'Product & Experimentation',
] as const;
export type Pillar = (typeof PILLARS)[number];

export interface Criterion {
  id: string;
  pillar: Pillar;
  level: 1 | 2 | 3 | 4 | 5;
  /** repository: evaluated once (denominator 1); application: once per application found. */
  scope: 'repository' | 'application';
  skippable: boolean;
  /** What passes it, in a sentence. */
  checks: string;
}

// One criterion a line, as a table: Prettier would spread each over seven lines (690 in all).
// prettier-ignore
export const CRITERIA: readonly Criterion[] = [
  { id: 'lint_config', pillar: 'Style & Validation', level: 1, scope: 'application', skippable: false, checks: 'A linter/static analyser is configured for the app (ESLint, Ruff/flake8, golangci-lint, clang ruleset, SonarQube ...).' },
  { id: 'type_check', pillar: 'Style & Validation', level: 1, scope: 'application', skippable: false, checks: 'A static type checker is configured (tsconfig strict, mypy config). Statically typed languages (Go, Swift) are credited by default.' },
  { id: 'formatter', pillar: 'Style & Validation', level: 1, scope: 'application', skippable: false, checks: 'An automatic formatter is configured (Prettier, Black/ruff format, gofmt/goimports, .clang-format).' },
  { id: 'pre_commit_hooks', pillar: 'Style & Validation', level: 2, scope: 'application', skippable: false, checks: 'Committed pre-commit hook setup (husky/lint-staged, .pre-commit-config.yaml, lefthook).' },
  { id: 'strict_typing', pillar: 'Style & Validation', level: 2, scope: 'application', skippable: true, checks: 'Strict type-checking mode is on (TS strict, mypy strict); Go/Rust/Swift count as strict by default; skip when unclear/untyped.' },
  { id: 'naming_consistency', pillar: 'Style & Validation', level: 3, scope: 'application', skippable: false, checks: 'Naming conventions are enforced by lint rules (revive, pep8-naming, typescript-eslint naming-convention, .editorconfig/analyzer rules) or written down in AGENTS.md/CONTRIBUTING.' },
  { id: 'cyclomatic_complexity', pillar: 'Style & Validation', level: 5, scope: 'application', skippable: false, checks: 'Complexity is measured/enforced (gocyclo/cyclop, ESLint complexity, radon/lizard, C901, Sonar).' },
  { id: 'large_file_detection', pillar: 'Style & Validation', level: 3, scope: 'repository', skippable: false, checks: 'Something flags oversized files: pre-commit check-added-large-files, CI size job, Git LFS in .gitattributes, max-lines lint rules.' },
  { id: 'dead_code_detection', pillar: 'Style & Validation', level: 3, scope: 'application', skippable: false, checks: 'Unused-code detection (knip, vulture, staticcheck/unused/deadcode, periphery, Sonar); monorepo root configs count for the apps they cover.' },
  { id: 'duplicate_code_detection', pillar: 'Style & Validation', level: 3, scope: 'application', skippable: false, checks: 'Copy-paste/DRY detection (jscpd, PMD CPD, dupl, pylint R0801, Sonar).' },
  { id: 'code_modularization', pillar: 'Style & Validation', level: 4, scope: 'application', skippable: true, checks: 'Module boundaries are enforced by tooling (Go internal/ packages, import-linter, dependency-cruiser, eslint boundaries, ArchUnit); skipped for small projects, Rust.' },
  { id: 'tech_debt_tracking', pillar: 'Style & Validation', level: 3, scope: 'repository', skippable: false, checks: 'TODO/FIXME markers are tracked: CI scanner, ticket-linked TODO rule, pylint fixme, Sonar debt.' },
  { id: 'n_plus_one_detection', pillar: 'Style & Validation', level: 4, scope: 'application', skippable: true, checks: 'N+1 query detection (bullet, nplusone, DataLoader, ORM query analysis, APM slow-query); skipped when the app has no DB/ORM.' },
  { id: 'build_cmd_doc', pillar: 'Build System', level: 2, scope: 'repository', skippable: false, checks: 'README/AGENTS.md states the build/install command.' },
  { id: 'deps_pinned', pillar: 'Build System', level: 2, scope: 'repository', skippable: false, checks: 'A lockfile is committed or versions are exact-pinned (package-lock, uv.lock, poetry.lock, go.sum, Cargo.lock); \'>=\' ranges without a lockfile fail.' },
  { id: 'vcs_cli_tools', pillar: 'Build System', level: 2, scope: 'repository', skippable: false, checks: 'gh/glab is installed and authenticated in the evaluating environment (a property of the evaluating machine); gates many API-based checks.' },
  { id: 'automated_pr_review', pillar: 'Build System', level: 2, scope: 'repository', skippable: true, checks: 'Bots/automation actually post review comments on PRs (CodeRabbit, droid review, danger.js), checked via gh pr list; skipped without gh.' },
  { id: 'agentic_development', pillar: 'Build System', level: 3, scope: 'repository', skippable: false, checks: 'Evidence agents take part in development: AI co-author trailers in the last 100 commits, agent CI workflows, droid exec scripts, .factory/.claude config/skills/hooks.' },
  { id: 'fast_ci_feedback', pillar: 'Build System', level: 4, scope: 'repository', skippable: true, checks: 'Average CI duration on recent merged PRs under 10 minutes (from statusCheckRollup timestamps); skipped without gh or PR history.' },
  { id: 'build_performance_tracking', pillar: 'Build System', level: 4, scope: 'repository', skippable: true, checks: 'Deliberate build-time measurement/optimisation: build caching (turbo/nx/buildx/uv cache), build metrics, step timing.' },
  { id: 'deployment_frequency', pillar: 'Build System', level: 4, scope: 'repository', skippable: true, checks: 'Multiple automated releases/deploys per week (gh release list / deploy workflow runs).' },
  { id: 'single_command_setup', pillar: 'Build System', level: 3, scope: 'repository', skippable: false, checks: 'Docs give one command or a short sequence from fresh clone to running dev server.' },
  { id: 'feature_flag_infrastructure', pillar: 'Build System', level: 4, scope: 'repository', skippable: false, checks: 'A feature-flag system (LaunchDarkly, Statsig, Unleash, GrowthBook, or custom) is configured.' },
  { id: 'release_notes_automation', pillar: 'Build System', level: 3, scope: 'repository', skippable: false, checks: 'Changelog/release notes are generated automatically (semantic-release, changesets, release-please, GitHub generated notes).' },
  { id: 'progressive_rollout', pillar: 'Build System', level: 4, scope: 'repository', skippable: true, checks: 'Canary/percentage/ring deployments; skipped for non-infra repos.' },
  { id: 'rollback_automation', pillar: 'Build System', level: 4, scope: 'repository', skippable: true, checks: 'Documented one-click/automated rollback; skipped for non-infra repos.' },
  { id: 'monorepo_tooling', pillar: 'Build System', level: 2, scope: 'repository', skippable: true, checks: 'Workspace/multi-module tooling (pnpm/yarn workspaces, Nx, Turborepo, Bazel, go.work, Cargo workspaces, Maven multi-module); skipped for single-app repos.' },
  { id: 'heavy_dependency_detection', pillar: 'Build System', level: 4, scope: 'application', skippable: true, checks: 'Bundle-size / heavy-dependency analysis (bundle analyzers, size-limit, Lighthouse budgets); skipped for non-bundled apps.' },
  { id: 'unused_dependencies_detection', pillar: 'Build System', level: 3, scope: 'application', skippable: false, checks: 'Unused dependency detection (depcheck, knip, deptry, \'go mod tidy\' in CI, cargo-udeps, mvn dependency:analyze).' },
  { id: 'version_drift_detection', pillar: 'Build System', level: 3, scope: 'repository', skippable: true, checks: 'Detection of dependency version drift across packages of a monorepo (syncpack, manypkg, Renovate grouping); skipped for single-app repos.' },
  { id: 'release_automation', pillar: 'Build System', level: 3, scope: 'repository', skippable: false, checks: 'Releases/deploys are automated (CD on merge, semantic-release, GitOps, image publishing, release-please).' },
  { id: 'dead_feature_flag_detection', pillar: 'Build System', level: 3, scope: 'repository', skippable: true, checks: 'Stale-flag detection or a flag clean-up process; prerequisite feature_flag_infrastructure.' },
  { id: 'unit_tests_exist', pillar: 'Testing', level: 1, scope: 'application', skippable: false, checks: 'Unit test files exist (*.test.ts, tests/test_*.py, *_test.go). An empty test directory fails.' },
  { id: 'integration_tests_exist', pillar: 'Testing', level: 3, scope: 'application', skippable: false, checks: 'Integration/E2E tests exist (Playwright/Cypress, tests/integration, e2e suites).' },
  { id: 'unit_tests_runnable', pillar: 'Testing', level: 2, scope: 'application', skippable: false, checks: 'The evaluator actually runs the documented test command in collect/list-only mode (pytest --collect-only, --listTests) to prove tests can run.' },
  { id: 'test_performance_tracking', pillar: 'Testing', level: 4, scope: 'application', skippable: false, checks: 'Test durations are measured/reported (pytest --durations, verbose timing, uploaded reports, test analytics).' },
  { id: 'flaky_test_detection', pillar: 'Testing', level: 4, scope: 'application', skippable: true, checks: 'Retry/quarantine/flake tracking (pytest-rerunfailures, vitest retry, BuildPulse) or duplicate check runs in PR history.' },
  { id: 'test_coverage_thresholds', pillar: 'Testing', level: 2, scope: 'application', skippable: false, checks: 'A minimum coverage is enforced (cov-fail-under, coverageThreshold, blocking Codecov/Sonar gate); tracking alone is not enough.' },
  { id: 'test_naming_conventions', pillar: 'Testing', level: 3, scope: 'application', skippable: false, checks: 'Test file naming is enforced/configured (pytest patterns, testMatch, Go *_test.go) or documented.' },
  { id: 'test_isolation', pillar: 'Testing', level: 4, scope: 'application', skippable: false, checks: 'Tests run isolated/parallel (xdist, t.Parallel, JUnit parallel, test DBs/transactions/testcontainers, randomisation).' },
  { id: 'interactive_qa_exists', pillar: 'Testing', level: 2, scope: 'application', skippable: false, checks: '(newer criterion) Docs give an agent-followable path to bring each app up and drive one real interaction, including deps and auth handling.' },
  { id: 'interactive_qa_runnable', pillar: 'Testing', level: 3, scope: 'application', skippable: false, checks: '(newer criterion) The evaluator actually brings each app up and drives an interaction end-to-end (falls back to verifying a complete documented path).' },
  { id: 'agents_md', pillar: 'Documentation', level: 2, scope: 'repository', skippable: false, checks: 'AGENTS.md at repo root, non-trivial (>100 chars) with build/test/workflow/conventions. CLAUDE.md alone does not satisfy it.' },
  { id: 'readme', pillar: 'Documentation', level: 1, scope: 'repository', skippable: false, checks: 'README at root with setup/usage instructions.' },
  { id: 'automated_doc_generation', pillar: 'Documentation', level: 2, scope: 'repository', skippable: false, checks: 'Docs are generated/updated by tooling (OpenAPI/Sphinx/JSDoc generators, changelog generators, doc-updating droid).' },
  { id: 'skills', pillar: 'Documentation', level: 3, scope: 'repository', skippable: false, checks: 'At least one valid skill ({name}/SKILL.md with name+description and non-empty body) under .factory/skills, .skills or .claude/skills.' },
  { id: 'documentation_freshness', pillar: 'Documentation', level: 3, scope: 'repository', skippable: false, checks: 'README.md, AGENTS.md or CONTRIBUTING.md changed in the last 180 days (git log).' },
  { id: 'api_schema_docs', pillar: 'Documentation', level: 3, scope: 'application', skippable: true, checks: 'OpenAPI/Swagger/GraphQL schema file exists; skipped for non-API apps (libraries, CLIs).' },
  { id: 'service_flow_documented', pillar: 'Documentation', level: 3, scope: 'repository', skippable: false, checks: 'Architecture/service-flow diagrams or documentation of external services/DBs the app calls.' },
  { id: 'agents_md_validation', pillar: 'Documentation', level: 4, scope: 'repository', skippable: false, checks: 'Automation keeps AGENTS.md honest (CI runs its commands, generator, link check); prerequisite agents_md.' },
  { id: 'devcontainer', pillar: 'Dev Environment', level: 2, scope: 'repository', skippable: false, checks: '.devcontainer/devcontainer.json exists and suits the stack.' },
  { id: 'env_template', pillar: 'Dev Environment', level: 1, scope: 'repository', skippable: false, checks: '.env.example or documented environment variables.' },
  { id: 'local_services_setup', pillar: 'Dev Environment', level: 2, scope: 'repository', skippable: true, checks: 'docker-compose or clear instructions for local dependencies (DB, cache); skipped when there are none.' },
  { id: 'database_schema', pillar: 'Dev Environment', level: 2, scope: 'application', skippable: true, checks: 'Schema definitions/migrations for the app\'s database; skipped without a DB.' },
  { id: 'devcontainer_runnable', pillar: 'Dev Environment', level: 3, scope: 'repository', skippable: true, checks: 'The devcontainer actually builds and runs (devcontainer CLI); skipped when the CLI is absent.' },
  { id: 'structured_logging', pillar: 'Debugging & Observability', level: 2, scope: 'application', skippable: false, checks: 'A logging library or dedicated logger module exists (pino, winston, structlog, loguru, zap, electron-log ...); presence of a library is enough.' },
  { id: 'distributed_tracing', pillar: 'Debugging & Observability', level: 3, scope: 'application', skippable: false, checks: 'Trace/request IDs propagate through requests (OpenTelemetry, X-Request-ID).' },
  { id: 'metrics_collection', pillar: 'Debugging & Observability', level: 3, scope: 'application', skippable: false, checks: 'Metrics/telemetry instrumentation (Prometheus, Datadog, OTel metrics, CloudWatch).' },
  { id: 'code_quality_metrics', pillar: 'Debugging & Observability', level: 4, scope: 'application', skippable: true, checks: 'Coverage/complexity/maintainability tracked over time (code scanning API, Codecov comments, Sonar gate); skipped without gh access and no evidence.' },
  { id: 'error_tracking_contextualized', pillar: 'Debugging & Observability', level: 2, scope: 'application', skippable: false, checks: 'Sentry/Bugsnag/Rollbar configured with context (source maps, breadcrumbs).' },
  { id: 'alerting_configured', pillar: 'Debugging & Observability', level: 3, scope: 'application', skippable: false, checks: 'PagerDuty/OpsGenie or alert rules/notifications defined.' },
  { id: 'runbooks_documented', pillar: 'Debugging & Observability', level: 2, scope: 'repository', skippable: false, checks: 'Runbooks/playbooks exist or are linked (even externally).' },
  { id: 'deployment_observability', pillar: 'Debugging & Observability', level: 4, scope: 'application', skippable: false, checks: 'Docs point to dashboards or deploy notifications to see deploy impact.' },
  { id: 'health_checks', pillar: 'Debugging & Observability', level: 3, scope: 'application', skippable: true, checks: 'Health endpoints, k8s probes, Docker HEALTHCHECK; skipped for non-deployed software.' },
  { id: 'circuit_breakers', pillar: 'Debugging & Observability', level: 4, scope: 'application', skippable: true, checks: 'Circuit breaker/retry-with-backoff around external calls (resilience4j, tenacity, opossum, mesh); skipped without external deps.' },
  { id: 'profiling_instrumentation', pillar: 'Debugging & Observability', level: 4, scope: 'application', skippable: true, checks: 'APM/continuous profiling/flame-graph tooling; skipped where profiling is not meaningful.' },
  { id: 'branch_protection', pillar: 'Security', level: 2, scope: 'repository', skippable: true, checks: 'Rulesets or branch protection on main/dev requiring review and blocking direct pushes (GitHub API, needs admin access; otherwise skipped).' },
  { id: 'secret_scanning', pillar: 'Security', level: 3, scope: 'repository', skippable: true, checks: 'Native secret scanning enabled (API) or gitleaks/trufflehog/detect-secrets in CI/hooks.' },
  { id: 'codeowners', pillar: 'Security', level: 2, scope: 'repository', skippable: false, checks: 'CODEOWNERS file in root or .github/ with valid owners.' },
  { id: 'automated_security_review', pillar: 'Security', level: 2, scope: 'repository', skippable: true, checks: 'Automated security reports (CodeQL/Semgrep/Snyk code scanning, audit comments); needs readable reports not just status.' },
  { id: 'dependency_update_automation', pillar: 'Security', level: 2, scope: 'repository', skippable: false, checks: 'Dependabot/Renovate configured and opening update PRs.' },
  { id: 'gitignore_comprehensive', pillar: 'Security', level: 1, scope: 'repository', skippable: false, checks: '.gitignore covers .env (not .env.example), deps, build output, IDE and OS files; tracked secrets fail it.' },
  { id: 'dast_scanning', pillar: 'Security', level: 4, scope: 'application', skippable: true, checks: 'DAST (ZAP, Nuclei, StackHawk ...) against a running target in CI; skipped for non-web software.' },
  { id: 'pii_handling', pillar: 'Security', level: 3, scope: 'application', skippable: true, checks: 'PII detection/masking tooling or documented handling; skipped when no personal data.' },
  { id: 'privacy_compliance', pillar: 'Security', level: 4, scope: 'repository', skippable: true, checks: 'Consent/retention/GDPR-CCPA handling; skipped without end-user data.' },
  { id: 'secrets_management', pillar: 'Security', level: 2, scope: 'repository', skippable: false, checks: 'Managed secrets (cloud secret manager, CI secrets, SOPS, gitignored .env + template); hardcoded secrets fail.' },
  { id: 'log_scrubbing', pillar: 'Security', level: 3, scope: 'application', skippable: false, checks: 'Log redaction/sanitisation configured or documented.' },
  { id: 'min_release_age', pillar: 'Security', level: 3, scope: 'repository', skippable: false, checks: '(newer criterion) Explicit waiting period before adopting new dependency releases (Renovate minimumReleaseAge/stabilityDays or written policy).' },
  { id: 'issue_templates', pillar: 'Task Discovery', level: 2, scope: 'repository', skippable: false, checks: '.github/ISSUE_TEMPLATE (or GitLab equivalent) with structured templates.' },
  { id: 'issue_labeling_system', pillar: 'Task Discovery', level: 2, scope: 'repository', skippable: false, checks: 'Consistent priority/type/area labels exist.' },
  { id: 'backlog_health', pillar: 'Task Discovery', level: 4, scope: 'repository', skippable: true, checks: '>70% of open issues have descriptive titles and a label, and not mostly stale; skipped without gh or issues.' },
  { id: 'pr_templates', pillar: 'Task Discovery', level: 2, scope: 'repository', skippable: false, checks: 'PR template with description/testing/context sections.' },
  { id: 'product_analytics_instrumentation', pillar: 'Product & Experimentation', level: 3, scope: 'application', skippable: false, checks: 'Product analytics SDK instrumented (PostHog, Mixpanel, Amplitude, Heap, GA4).' },
  { id: 'error_to_insight_pipeline', pillar: 'Product & Experimentation', level: 5, scope: 'application', skippable: false, checks: 'Errors flow into issues automatically (Sentry-GitHub integration, error-to-issue automation).' },
];

export const CRITERION_BY_ID: ReadonlyMap<string, Criterion> = new Map(CRITERIA.map((c) => [c.id, c]));
