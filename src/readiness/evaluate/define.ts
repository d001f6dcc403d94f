import type { App } from './apps.js';
import { appFiles, appWhere, evidenceOutcome, firstEvidence, dep, type Rule } from './evidence.js';
import { skip, type Check, type CheckContext, type Outcome } from './types.js';

export const repoCheck = (id: string, run: (ctx: CheckContext) => Promise<Outcome>): Check => ({ id, scope: 'repository', run });
export const appCheck = (id: string, run: (ctx: CheckContext, app: App) => Promise<Outcome>): Check => ({ id, scope: 'application', run });

/** A repository criterion met by any one of `rules` anywhere in the checkout. */
export const repoEvidence = (id: string, rules: Rule[]): Check => repoCheck(id, (ctx) => evidenceOutcome(ctx, ctx.scan.files, rules));

/** An application criterion met by any one of `rules` in the application or the shared configuration. */
export const appEvidence = (id: string, rules: Rule[]): Check => appCheck(id, (ctx, app) => evidenceOutcome(ctx, appFiles(ctx, app), rules, appWhere(app)));

/** Evidence that an application keeps data in a database: a driver or ORM, or migrations. */
export const DATABASE: Rule[] = [
  dep(
    'database driver or ORM',
    'pg',
    'postgres',
    'mysql',
    'mysql2',
    'sqlite3',
    'better-sqlite3',
    '@prisma/client',
    'prisma',
    'typeorm',
    'sequelize',
    'mongoose',
    'mongodb',
    'knex',
    'drizzle-orm',
    '@electric-sql/pglite',
    'sqlalchemy',
    'django',
    'psycopg',
    'psycopg2',
    'psycopg2-binary',
    'pymongo',
    'peewee',
    'tortoise-orm',
    'gorm.io/gorm',
    'github.com/jackc/pgx',
    'github.com/lib/pq',
    'github.com/jmoiron/sqlx',
    'database/sql',
    'diesel',
    'sqlx',
    'sea-orm',
    'rusqlite',
    'spring-boot-starter-data-jpa',
    'hibernate-core',
    'activerecord',
    'rails',
    'sequel',
    'alembic',
    'sqlmodel',
    'asyncpg',
    'aiosqlite',
    'pymysql',
    'mysqlclient',
    'motor',
    'flyway-core',
    'org.flywaydb',
    'liquibase-core',
    'org.liquibase',
    'spring-boot-starter-jdbc',
    'spring-boot-starter-data-jdbc',
    'mybatis',
    'org.jooq',
    'mysql-connector-j',
    'mysql-connector-java',
    'org.postgresql',
    'GRDB.swift',
    'SQLite.swift',
    'fluent-kit',
    'fluent-postgres-driver',
    'fluent-sqlite-driver',
    'drizzle-kit',
    'kysely',
    '@mikro-orm/core',
  ),
  {
    file: /(^|\/)(migrations?|db\/migrate|alembic)\/[^/]+$|(^|\/)[^/]+\.prisma$|\.xcdatamodeld\//,
    what: 'migrations or schema',
  },
];

/** Evidence that an application serves HTTP: a web framework. */
export const WEB_FRAMEWORK: Rule[] = [
  dep(
    'web framework',
    'express',
    'fastify',
    'koa',
    '@hapi/hapi',
    '@nestjs/core',
    'next',
    'nuxt',
    '@remix-run/node',
    'hono',
    'flask',
    'fastapi',
    'django',
    'starlette',
    'aiohttp',
    'tornado',
    'github.com/gin-gonic/gin',
    'github.com/labstack/echo',
    'github.com/gofiber/fiber',
    'github.com/go-chi/chi',
    'github.com/gorilla/mux',
    'actix-web',
    'axum',
    'rocket',
    'warp',
    'spring-boot-starter-web',
    'spring-boot-starter-webflux',
    'io.ktor',
    'rails',
    'sinatra',
    'hanami',
    'drogon',
    'crow',
  ),
];

/** Evidence that the software is deployed: container, orchestrator or platform configuration. */
export const DEPLOYMENT: Rule[] = [
  {
    file: /(^|\/)(Dockerfile[^/]*|Containerfile|Procfile|fly\.toml|app\.ya?ml|serverless\.ya?ml|vercel\.json|netlify\.toml|render\.yaml|Chart\.yaml|skaffold\.yaml|kustomization\.ya?ml|[^/]+\.tf)$/,
    what: 'deployment configuration',
  },
  {
    file: /(^|\/)(k8s|kubernetes|helm|deploy|deployment|manifests)\/.+\.ya?ml$/,
    content: /^kind:\s*(Deployment|StatefulSet|Service|DaemonSet)/m,
    what: 'Kubernetes manifest',
  },
];

/** Skips when the application shows none of `applies`; otherwise looks for `rules`. */
export const appEvidenceWhen = (id: string, applies: Rule[], notApplicable: string, rules: Rule[]): Check =>
  appCheck(id, async (ctx, app) => {
    const files = appFiles(ctx, app);
    if (!(await firstEvidence(ctx, app.path === '.' ? files : app.files, applies))) return skip(notApplicable);
    return evidenceOutcome(ctx, files, rules, appWhere(app));
  });
