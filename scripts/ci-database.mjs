// Creates or drops the PostgreSQL database that one CI run of the test suite uses as its base.
// Usage: node scripts/ci-database.mjs create|drop SERVER_URL NAME
import postgres from 'postgres';

const [action, serverUrl, name] = process.argv.slice(2);
if (!['create', 'drop'].includes(action) || !serverUrl || !/^[a-z0-9_]+$/.test(name ?? '')) {
  console.error('usage: node scripts/ci-database.mjs create|drop SERVER_URL NAME');
  process.exit(2);
}
const sql = postgres(serverUrl, { max: 1, onnotice: () => undefined });
try {
  await sql.unsafe(action === 'create' ? `CREATE DATABASE ${name}` : `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
} finally {
  await sql.end();
}
