import { git } from '../git.js';
import { ci, dep, doc, evidenceOutcome, file } from '../evidence.js';
import { appEvidenceWhen, repoCheck, repoEvidence, WEB_FRAMEWORK } from '../define.js';
import { fail, pass, type Check } from '../types.js';

const FRESH_DAYS = 180;

/** name and description in the front matter, and a body after it. */
function validSkill(text: string): boolean {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text);
  if (!m) return false;
  return /^name:\s*\S/m.test(m[1]!) && /^description:\s*\S/m.test(m[1]!) && m[2]!.trim() !== '';
}

export const docsChecks: Check[] = [
  repoCheck('agents_md', async (ctx) => {
    const text = await ctx.scan.read('AGENTS.md');
    if (text === undefined)
      return fail(ctx.scan.has('CLAUDE.md') ? 'CLAUDE.md found but no AGENTS.md at the root (CLAUDE.md alone does not count)' : 'no AGENTS.md at the root');
    if (text.trim().length <= 100) return fail(`AGENTS.md has ${text.trim().length} characters (more than 100 needed)`);
    const topics = ['build', 'test', 'workflow', 'convention', 'lint', 'run'].filter((t) => new RegExp(t, 'i').test(text));
    if (!topics.length) return fail('AGENTS.md names no build, test, workflow or convention');
    return pass(`AGENTS.md (${text.trim().length} characters) covers ${topics.join(', ')}`);
  }),
  repoCheck('readme', async (ctx) => {
    const name = ctx.scan.files.find((f) => /^README(\.(md|rst|txt|adoc|markdown))?$/i.test(f));
    if (!name) return fail('no README at the root');
    const text = (await ctx.scan.read(name)) ?? '';
    const topic = /\b(install|setup|set up|usage|getting started|quick ?start|how to run|build)\b/i.exec(text);
    return topic
      ? pass(`${name} has setup/usage instructions ("${topic[0]}")`)
      : fail(`${name} has no setup or usage section (install, setup, usage, getting started)`);
  }),
  repoEvidence('automated_doc_generation', [
    file(
      'documentation generator config',
      /^(mkdocs\.ya?ml|docs?\/conf\.py|typedoc\.json|Doxyfile|\.readthedocs\.ya?ml|redocly\.ya?ml|docusaurus\.config\.[cm]?[jt]s)$/,
    ),
    dep(
      'documentation generator',
      'typedoc',
      'jsdoc',
      'sphinx',
      'mkdocs',
      'pdoc',
      '@redocly/cli',
      'redoc-cli',
      'swagger-jsdoc',
      'openapi-typescript',
      'api-extractor',
      '@microsoft/api-documenter',
    ),
    { file: /^package\.json$/, content: /"(docs|openapi|generate:docs|docs:build)"\s*:/, what: 'docs/OpenAPI generation script' },
    ci('documentation generated in CI', /typedoc|sphinx-build|mkdocs|cargo doc|javadoc|dokka|openapi|generate[-_ ]docs|doc-?gen/i),
  ]),
  repoCheck('skills', async (ctx) => {
    const candidates = ctx.scan.files.filter((f) => /^(\.factory\/skills|\.skills|\.claude\/skills)\/[^/]+\/SKILL\.md$/.test(f));
    for (const f of candidates) if (validSkill((await ctx.scan.read(f)) ?? '')) return pass(`valid skill ${f} (name, description and body)`);
    if (candidates.length) return fail(`no valid skill: ${candidates.slice(0, 3).join(', ')} lack name, description or body`);
    return fail('no {name}/SKILL.md under .factory/skills, .skills or .claude/skills');
  }),
  repoCheck('documentation_freshness', async (ctx) => {
    const docs = ['README.md', 'AGENTS.md', 'CONTRIBUTING.md'].filter((f) => ctx.scan.has(f));
    if (!docs.length) return fail('none of README.md, AGENTS.md, CONTRIBUTING.md exists');
    const out = await git(ctx.scan.root, ['log', '-1', '--format=%ct %h', '--', ...docs], { allowFailure: true });
    const [seconds, hash] = out.trim().split(' ');
    if (!seconds || ctx.git.headTime === undefined) return fail(`${docs.join(', ')} never committed`);
    // Measured against the HEAD commit's date, not the clock, so a commit always gives the same report.
    const days = Math.floor((ctx.git.headTime - Number(seconds)) / 86_400);
    const text = `${docs.join(', ')} last changed in ${hash}, ${days} days before HEAD`;
    return days <= FRESH_DAYS ? pass(text) : fail(`${text} (more than ${FRESH_DAYS})`);
  }),
  appEvidenceWhen('api_schema_docs', WEB_FRAMEWORK, 'no web framework in the application: not an API service', [
    file('API schema file', /(^|\/)(openapi|swagger)[^/]*\.(json|ya?ml)$|\.graphql$|\.gql$|\.proto$/i),
    dep(
      'generated API schema',
      '@fastify/swagger',
      'swagger-ui-express',
      '@nestjs/swagger',
      'fastapi',
      'drf-spectacular',
      'drf-yasg',
      'github.com/swaggo/swag',
      'springdoc-openapi-starter-webmvc-ui',
      'utoipa',
      'rswag',
    ),
  ]),
  repoEvidence('service_flow_documented', [
    file('architecture document', /(^|\/)ARCHITECTURE\.md$|^docs?\/[^/]*architecture[^/]*\.(md|mdx|rst)$/i),
    file('diagram source', /\.(mmd|puml|plantuml|drawio|dsl)$/),
    doc('diagram or service flow in docs', /```mermaid|sequenceDiagram|flowchart (TD|LR)|@startuml|## (Architecture|Data flow|Service flow)/i),
  ]),
  repoCheck('agents_md_validation', async (ctx) => {
    if (!ctx.scan.has('AGENTS.md')) return fail('no AGENTS.md (prerequisite agents_md) to keep honest');
    return evidenceOutcome(ctx, ctx.scan.files, [
      ci('AGENTS.md checked in CI', /AGENTS\.md|lychee|markdown-link-check|mdlinkcheck/),
      { file: /^(scripts|tools|bin)\/.+$/, content: /AGENTS\.md/, what: 'script reading AGENTS.md' },
    ]);
  }),
];
