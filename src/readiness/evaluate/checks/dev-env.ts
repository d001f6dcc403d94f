import { runProcess } from '../../../core/process/run-process.js';
import { DATABASE, repoCheck } from '../define.js';
import { appFiles, appWhere, dep, doc, evidenceOutcome, file, firstEvidence, JVM_BUILD, type Rule } from '../evidence.js';
import { appCheck } from '../define.js';
import { fail, pass, skip, type Check } from '../types.js';

const DEVCONTAINER = /^(\.devcontainer\/devcontainer\.json|\.devcontainer\.json|\.devcontainer\/[^/]+\/devcontainer\.json)$/;

const SERVICES: Rule[] = [
  ...DATABASE,
  dep(
    'cache or broker client',
    'redis',
    'ioredis',
    'memcached',
    'kafkajs',
    'amqplib',
    'celery',
    'pika',
    'confluent-kafka',
    'elasticsearch',
    '@elastic/elasticsearch',
    'github.com/redis/go-redis',
    'github.com/segmentio/kafka-go',
  ),
  file('compose file', /^(docker-)?compose[^/]*\.ya?ml$/),
];

/** Comments and trailing commas allowed, as devcontainer.json is JSONC. */
const parseJsonc = (text: string): unknown => {
  try {
    return JSON.parse(
      text
        .replace(/^\s*\/\/.*$/gm, '')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/,(\s*[}\]])/g, '$1'),
    ) as unknown;
  } catch {
    return undefined;
  }
};

/** Schema management, tool by tool: a stray .sql file (a fixture, a query) is not a schema. */
const SCHEMA: Rule[] = [
  file('Alembic migrations', /(^|\/)(alembic\.ini|(alembic|migrations)\/versions\/[^/]+\.py)$/),
  file('Flyway migrations', /(^|\/)(flyway\.(conf|toml)|V\d+(_\d+)*__[^/]+\.sql)$/),
  file('Liquibase changelog', /(^|\/)(liquibase\.properties|db\/changelog\/.+|[^/]*changelog[^/]*\.(xml|ya?ml|json|sql))$/),
  file('Prisma schema', /(^|\/)([^/]+\.prisma|prisma\/migrations\/.+)$/),
  file('Drizzle config', /(^|\/)drizzle\.config\.[cm]?[jt]s$/),
  file('migrations', /(^|\/)(migrations?|db\/migrate|migrate|priv\/repo\/migrations)\/.+\.(sql|py|rb|ts|js|go|exs|ya?ml)$/),
  file(
    'SQL schema',
    /(^|\/)((schema|structure|init|ddl)\.sql|schema\.rb|diesel\.toml|(schema|schemas|sql|db|database|ddl|drizzle|supabase)\/(.+\/)?[^/]+\.sql|\d+[_-][^/]+\.sql)$/,
  ),
  file('Core Data model', /\.xcdatamodeld\/.+/),
  { file: JVM_BUILD, content: /flyway|liquibase/i, what: 'Flyway/Liquibase build plugin' },
];

export const devEnvChecks: Check[] = [
  repoCheck('devcontainer', async (ctx) => {
    const f = ctx.scan.files.find((x) => DEVCONTAINER.test(x));
    if (!f) return fail('no .devcontainer/devcontainer.json or .devcontainer.json');
    const cfg = parseJsonc((await ctx.scan.read(f)) ?? '') as { image?: string; build?: unknown; dockerComposeFile?: unknown } | undefined;
    if (!cfg) return fail(`${f} is not valid JSON(C)`);
    const base = cfg.image ? `image ${cfg.image}` : cfg.build ? 'a Dockerfile build' : cfg.dockerComposeFile ? 'a compose file' : undefined;
    return base ? pass(`${f} defines ${base}`) : fail(`${f} names no image, build or dockerComposeFile`);
  }),
  repoCheck('env_template', async (ctx) =>
    evidenceOutcome(ctx, ctx.scan.files, [
      file('environment template', /(^|\/)(\.env\.(example|sample|template|dist|defaults)|example\.env|env\.example|\.env-example)$/),
      doc('documented environment variables', /environment variables?[\s\S]{0,400}`[A-Z][A-Z0-9_]{2,}`|^\|\s*`[A-Z][A-Z0-9_]{2,}`\s*\|/m),
    ]),
  ),
  repoCheck('local_services_setup', async (ctx) => {
    const needs = await firstEvidence(ctx, ctx.scan.files, SERVICES);
    if (!needs) return skip('no database, cache or broker dependency: no local services to set up');
    return evidenceOutcome(ctx, ctx.scan.files, [
      file('compose file', /(^|\/)(docker-)?compose[^/]*\.ya?ml$/),
      { file: DEVCONTAINER, content: /dockerComposeFile/, what: 'devcontainer with services' },
      file('Tiltfile', /^Tiltfile$/),
      doc(
        'documented local services',
        /docker[- ]compose up|docker run [^\n]*(postgres|mysql|redis|mongo)|(start|run|install) (a local )?(postgres|postgresql|mysql|redis|mongodb)|DATABASE_URL/i,
      ),
    ]);
  }),
  appCheck('database_schema', async (ctx, app) => {
    const db = await firstEvidence(ctx, app.path === '.' ? ctx.scan.files : app.files, DATABASE);
    if (!db) return skip(`no database driver, ORM or migrations in ${app.path}: no schema to define`);
    return evidenceOutcome(ctx, appFiles(ctx, app), SCHEMA, appWhere(app));
  }),
  repoCheck('devcontainer_runnable', async (ctx) => {
    const f = ctx.scan.files.find((x) => DEVCONTAINER.test(x));
    if (!f) return skip('no devcontainer configuration to run');
    if (!(await ctx.probe.devcontainerCli()))
      return skip(`the devcontainer CLI is not on the PATH of ${ctx.probe.where?.() ?? 'the evaluating machine'} (a property of the machine, not of ${f})`);
    // Building would run the repository's Dockerfile; reading the configuration proves the CLI accepts it.
    const r = await runProcess('devcontainer', ['read-configuration', '--workspace-folder', ctx.scan.root], {
      timeoutMs: 60_000,
      killGraceMs: 1000,
      stdout: 'none',
      stderr: 'none',
    });
    const ok = r.exitCode === 0 && !r.timedOut;
    return ok
      ? pass(`devcontainer read-configuration accepts ${f} (not built: building runs repository code)`)
      : fail(`devcontainer read-configuration refuses ${f}`);
  }),
];
