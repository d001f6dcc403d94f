import { parse as parseYaml } from 'yaml';
import { git } from '../git.js';
import { apiFailure } from '../forge.js';
import { appEvidence, appEvidenceWhen, DATABASE, repoCheck, repoEvidence, WEB_FRAMEWORK } from '../define.js';
import { ci, dep, doc, evidenceOutcome, file, firstEvidence, HOOK_FILE, type Rule } from '../evidence.js';
import { forgeCheck } from './build.js';
import { branchProtectionOffline, secretScanningOffline, SECURITY_CONFIG } from './offline-forge.js';
import { fail, pass, skip, type Check } from '../types.js';

const DEP_UPDATES = /^(\.github\/dependabot\.ya?ml|renovate\.json5?|\.renovaterc(\.json5?)?|\.github\/renovate\.json5?|\.gitlab\/renovate\.json5?)$/;
const SECRET_FILE = /(^|\/)(\.env(\.(local|production|prod|development|dev))?|id_rsa|id_ed25519|[^/]+\.pem|[^/]+\.p12|credentials\.json)$/;
const SECRET_TEXT =
  /AKIA[0-9A-Z]{16}|-----BEGIN (RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----|\bgh[pousr]_[A-Za-z0-9]{36}\b|\bxox[baprs]-[A-Za-z0-9-]{10,}|\bsk_live_[A-Za-z0-9]{16,}/;
const SECRET_TOOLS: Rule[] = [
  file('secret scanner config', /(^|\/)(\.gitleaks\.toml|\.secrets\.baseline|\.trufflehog[^/]*|\.gitguardian\.ya?ml)$/),
  { file: HOOK_FILE, content: /gitleaks|trufflehog|detect-secrets|ggshield/, what: 'secret scanner in hooks' },
  ci('secret scanner in CI', /gitleaks|trufflehog|detect-secrets|ggshield/),
];

/** Why a Dependabot or Renovate file updates nothing (no `updates` entries, `enabled: false`), or undefined when it configures updates. */
async function configuresNoUpdates(f: string, text: string): Promise<string | undefined> {
  if (/dependabot\.ya?ml$/.test(f)) {
    let cfg: unknown;
    try {
      cfg = parseYaml(text);
    } catch {
      return 'is not valid YAML';
    }
    const updates = (cfg as { updates?: { 'package-ecosystem'?: string }[] } | null)?.updates;
    if (!Array.isArray(updates) || !updates.length) return 'has no updates entries: it configures no dependency updates';
    return undefined;
  }
  // Renovate files may be JSON5; only an explicit switch-off is read, anything else configures updates.
  return /"?enabled"?\s*:\s*false/.test(text.split('\n').slice(0, 20).join('\n')) && !/packageRules/.test(text) ? 'sets enabled: false' : undefined;
}

/** Tracked files that hold a secret: by name, or by a well-known key format in their text. */
async function trackedSecrets(ctx: Parameters<Check['run']>[0]): Promise<string[]> {
  const hits = ctx.scan.files.filter((f) => SECRET_FILE.test(f));
  const found = await firstEvidence(ctx, ctx.scan.files, [
    { file: /\.(env|ya?ml|json|toml|ini|cfg|conf|properties|py|js|ts|go|rb|java|sh|tf|txt|md)$/, content: SECRET_TEXT, what: 'key in text' },
  ]);
  return [...hits, ...(found ? [found.replace(/: ".*"\)$/, ')')] : [])];
}

export const securityChecks: Check[] = [
  forgeCheck(
    'branch_protection',
    async (forge) => {
      const branch = await forge.defaultBranch();
      const r = await forge.branchRequiresReview(branch);
      return r.requiresReview ? pass(`${forge.name}: ${r.via}`) : fail(`${forge.name}: ${r.via}`);
    },
    branchProtectionOffline,
  ),
  repoCheck('secret_scanning', async (ctx) => {
    const local = await firstEvidence(ctx, ctx.scan.files, SECRET_TOOLS);
    if (local) return pass(`found ${local}`);
    if ('unavailable' in ctx.forge) return secretScanningOffline(ctx, ctx.forge.unavailable);
    try {
      const status = await ctx.forge.secretScanning();
      if (status === undefined) return skip(`${ctx.forge.name} does not show its secret scanning setting to this token (needs admin access)`);
      return status === 'enabled'
        ? pass(`native secret scanning is enabled on ${ctx.forge.name}`)
        : fail(`native secret scanning is ${status} on ${ctx.forge.name}, and no scanner in CI or hooks`);
    } catch (e) {
      return skip(apiFailure(e));
    }
  }),
  repoCheck('codeowners', async (ctx) => {
    const f = ['CODEOWNERS', '.github/CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'].find((x) => ctx.scan.has(x));
    if (!f) return fail('no CODEOWNERS in the root, .github/, docs/ or .gitlab/');
    const owners = ((await ctx.scan.read(f)) ?? '').split('\n').filter((l) => /^[^#\s]\S*\s+(@[\w.-]+(\/[\w.-]+)?|[^@\s]+@[^@\s]+)/.test(l.trim()));
    return owners.length
      ? pass(`${f} assigns owners (${owners.length} rules, e.g. "${owners[0]!.trim().slice(0, 80)}")`)
      : fail(`${f} has no rule with a valid owner (@user, @org/team or e-mail)`);
  }),
  repoCheck('automated_security_review', async (ctx) => {
    const local = await firstEvidence(ctx, ctx.scan.files, [
      ci('security analysis with reports in CI', /github\/codeql-action|upload-sarif|semgrep|snyk|sonarsource|bandit|gosec|brakeman|osv-scanner|trivy/i),
      ...SECURITY_CONFIG,
    ]);
    if (local) return pass(`found ${local}`);
    if ('unavailable' in ctx.forge)
      return fail(
        `no CodeQL/Semgrep/Snyk/Bandit/gosec in CI and no security analysis configuration in the checkout; code scanning results not read: ${ctx.forge.unavailable}`,
      );
    try {
      const n = await ctx.forge.codeScanningAnalyses();
      return n > 0
        ? pass(`${n} recent code scanning analyses on ${ctx.forge.name}`)
        : fail(`no security analysis in CI and no code scanning analyses on ${ctx.forge.name}`);
    } catch (e) {
      return skip(apiFailure(e));
    }
  }),
  repoCheck('dependency_update_automation', async (ctx) => {
    const f = ctx.scan.files.find((x) => DEP_UPDATES.test(x));
    const inPkg = !f && /"renovate"\s*:/.test((await ctx.scan.read('package.json')) ?? '') ? 'package.json renovate' : undefined;
    const config = f ?? inPkg;
    if (!config) return fail('no Dependabot or Renovate configuration (.github/dependabot.yml, renovate.json, .renovaterc)');
    const idle = f ? await configuresNoUpdates(f, (await ctx.scan.read(f)) ?? '') : undefined;
    if (idle) return fail(`${f} ${idle}`);
    if ('unavailable' in ctx.forge) return pass(`${config} configures dependency updates; update pull requests not checked: ${ctx.forge.unavailable}`);
    try {
      const n = await ctx.forge.dependencyPulls();
      return n > 0
        ? pass(`${config}, and ${n} update pull requests on ${ctx.forge.name}`)
        : fail(`${config} exists but no Dependabot/Renovate pull request on ${ctx.forge.name}`);
    } catch (e) {
      return pass(`${config} configures dependency updates; pull requests not checked: ${apiFailure(e)}`);
    }
  }),
  repoCheck('gitignore_comprehensive', async (ctx) => {
    if (!ctx.scan.has('.gitignore')) return fail('no .gitignore at the root');
    const probes: Record<string, string[]> = {
      '.env': ['.env'],
      dependencies: ['node_modules/x', '.venv/x', 'venv/x', 'vendor/x', 'target/x', '__pycache__/x', '.bundle/x'],
      'build output': ['dist/x', 'build/x', 'out/x', 'target/x', 'bin/x', 'x.o', 'x.class'],
      'IDE files': ['.idea/x', '.vscode/x', 'x.swp', 'x.iml'],
      'OS files': ['.DS_Store', 'Thumbs.db'],
    };
    const all = [...new Set([...Object.values(probes).flat(), '.env.example'])];
    // The machine's global excludes are left out so the answer depends on the repository only.
    const out = await git(ctx.scan.root, ['-c', 'core.excludesFile=/dev/null', 'check-ignore', '--no-index', ...all], { allowFailure: true });
    const ignored = new Set(out.split('\n').filter(Boolean));
    const missing = Object.entries(probes)
      .filter(([, ps]) => !ps.some((p) => ignored.has(p)))
      .map(([k]) => k);
    const secrets = await trackedSecrets(ctx);
    const problems = [
      ...(missing.length ? [`does not cover ${missing.join(', ')}`] : []),
      ...(ignored.has('.env.example') ? ['ignores .env.example'] : []),
      ...(secrets.length ? [`tracked secrets: ${secrets.slice(0, 3).join(', ')}`] : []),
    ];
    return problems.length
      ? fail(`.gitignore ${problems.join('; ')}`)
      : pass('.gitignore covers .env, dependencies, build output, IDE and OS files; no tracked secrets');
  }),
  appEvidenceWhen('dast_scanning', WEB_FRAMEWORK, 'no web framework in the application: DAST does not apply', [
    ci('DAST in CI', /zaproxy|owasp[-_ ]zap|zap-baseline|zap-full-scan|zap-api-scan|nuclei|stackhawk|dastardly|burp|nikto/i),
  ]),
  appEvidenceWhen('pii_handling', DATABASE, 'no database in the application: no personal data is kept', [
    dep('PII tooling', 'presidio-analyzer', 'presidio-anonymizer', 'scrubadub', 'pii-filter', '@redactpii/node', 'faker'),
    file('privacy document', /(^|\/)(PRIVACY|DATA[-_]HANDLING|PII)[^/]*\.md$/i),
    doc('documented PII handling', /\bPII\b|personal data|personally identifiable/i),
  ]),
  repoCheck('privacy_compliance', async (ctx) => {
    if (!(await firstEvidence(ctx, ctx.scan.files, DATABASE))) return skip('no database anywhere in the repository: no end-user data is kept');
    return evidenceOutcome(ctx, ctx.scan.files, [
      file('privacy document', /(^|\/)(PRIVACY|GDPR|DATA[-_]RETENTION)[^/]*\.md$/i),
      doc('documented privacy handling', /\bGDPR\b|\bCCPA\b|data retention|retention period|right to (erasure|be forgotten)|consent/i),
      dep('consent tooling', 'cookieconsent', 'vanilla-cookieconsent', 'klaro', '@cookiehub/cookiehub'),
    ]);
  }),
  repoCheck('secrets_management', async (ctx) => {
    const secrets = await trackedSecrets(ctx);
    if (secrets.length) return fail(`hardcoded or tracked secrets: ${secrets.slice(0, 3).join(', ')}`);
    return evidenceOutcome(ctx, ctx.scan.files, [
      ci('CI secrets', /\$\{\{\s*secrets\.|\$[A-Z_]+_(TOKEN|KEY|SECRET)\b/),
      file('SOPS config', /(^|\/)\.sops\.ya?ml$/),
      dep(
        'secret manager client',
        '@aws-sdk/client-secrets-manager',
        '@google-cloud/secret-manager',
        '@azure/keyvault-secrets',
        'hvac',
        'node-vault',
        'doppler',
        'infisical',
        'github.com/hashicorp/vault/api',
      ),
      file('environment template (with .env ignored)', /(^|\/)(\.env\.(example|sample|template)|example\.env)$/),
    ]);
  }),
  appEvidence('log_scrubbing', [
    {
      file: /\.(ts|js|mjs|py|go|rb|java|kt|rs)$/,
      content: /\bredact\s*:|\bredact(ion|ed)?\b|scrub|sanitiz(e|er)[A-Za-z]*\s*\(|maskSecrets|send_default_pii\s*=\s*False/i,
      what: 'log redaction',
    },
    doc('documented log redaction', /never log (a )?secret|redact|scrub|mask(ed|ing)? (in )?logs?/i),
  ]),
  repoEvidence('min_release_age', [
    { file: DEP_UPDATES, content: /minimumReleaseAge|stabilityDays|cooldown/, what: 'update delay' },
    {
      file: /^(\.npmrc|pnpm-workspace\.yaml|bunfig\.toml|uv\.toml|pyproject\.toml)$/,
      content: /minimum-release-age|minimumReleaseAge|exclude-newer/,
      what: 'package manager release age',
    },
    doc('written release-age policy', /(waiting period|minimum release age|cool-?down|wait \d+ days).{0,80}(release|version|dependenc)/i),
  ]),
];
