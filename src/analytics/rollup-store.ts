import type { Transaction } from '../core/db/db.js';
import {
  keptLanguages,
  LANGUAGE_BYTES_PER_USER_DAY,
  LANGUAGES_PER_USER_DAY,
  MODEL_BYTES_PER_USER_DAY,
  MODELS_PER_USER_DAY,
  NAMES_PER_DAY,
  OTHER,
} from './bounds.js';
import { PRIMARY_MODEL_OF } from './primary-model.js';
import { MODEL_COUNTS, USER_DAY_COUNTS, type RollupDeltas } from './rollups.js';

const NAMES_JSON = JSON.stringify(NAMES_PER_DAY);

/**
 * Each table's new rows arrive as one JSON document of arrays, one array per row in the column
 * order below: cheaper to build, send and read than an array parameter per column. Credit units
 * travel as strings, since they can pass 2^53.
 */
export function jsonRows(param: number, columns: readonly (readonly [name: string, sqlType: string])[]): string {
  const fields = columns.map(([name, type], i) =>
    type === 'text[]' ? `ARRAY(SELECT jsonb_array_elements_text(r->${i})) AS ${name}` : `(r->>${i})::${type} AS ${name}`,
  );
  return `(SELECT ${fields.join(', ')} FROM jsonb_array_elements($${param}::text::jsonb) AS r)`;
}

const counters = (names: readonly string[]) => names.map((n) => [n, 'bigint'] as const);
const userDayColumns = [
  ['day', 'date'],
  ['user_id', 'uuid'],
  ['credit_units', 'bigint'],
  ['last_session_ms', 'bigint'],
  ['last_session_level', 'text'],
  ['languages', 'text[]'],
  ...counters(USER_DAY_COUNTS),
] as const;
const modelColumns = [
  ['day', 'date'],
  ['user_id', 'uuid'],
  ['model', 'text'],
  ['tier', 'text'],
  ['credit_units', 'bigint'],
  ...counters(MODEL_COUNTS),
] as const;
const counterColumns = [
  ['day', 'date'],
  ['kind', 'text'],
  ['name', 'text'],
  ['name2', 'text'],
  ['name3', 'text'],
  ['count', 'bigint'],
] as const;

const userDaySums = ['credit_units', ...USER_DAY_COUNTS];
/** The key spaces of the user-day and the (day, kind) advisory locks (migrations use the one-number form). */
const USER_DAY_LOCKS = 727140002;
const DAY_NAME_LOCKS = 727140003;
const modelSums = ['credit_units', ...MODEL_COUNTS];

// Five statements, sent together (one round trip). The first locks the batch's user-days (an
// advisory lock each, held to the end of the transaction), so that a concurrent batch of the same
// user-day has committed before the next statements begin: a statement sees what committed before
// it began, and the user-day upsert ranks all the day's model rows for its primary model. Then
// the model rows, the user-day rows, and last the rows every batch of those days shares (named
// counters, day versions), so that concurrent batches wait on each other only for the end of a
// transaction; the named counters after a lock of each (day, kind) they bring new names to, for the same reason
// as the user-days' (the day's names are counted against their bound). Locks and rows go in sorted
// order, so concurrent batches never wait in a cycle.
const lockUserDaysSql = `
  SELECT count(pg_advisory_xact_lock(${USER_DAY_LOCKS}, hashtext($1 || k.day::text || k.user_id::text)))
  FROM unnest($2::date[], $3::uuid[]) AS k(day, user_id)`;

// A user-day keeps at most $3 models and $5 bytes of their names (bounds.ts): a model it has counts
// as itself, a new one while there is room (most credits first), the rest under $4 (OTHER) with
// their exact sums. The user-day's advisory lock, taken first, keeps concurrent batches of it from
// both taking a place.
const modelRowsSql = `
  WITH incoming AS (SELECT * FROM ${jsonRows(2, modelColumns)} AS m),
  present AS (
    SELECT i.*, octet_length(to_json(i.model)::text) - 2 AS bytes, EXISTS (
      SELECT 1 FROM analytics_user_day_model t
      WHERE t.org_id = $1 AND t.day = i.day AND t.user_id = i.user_id AND t.model = i.model AND t.tier = i.tier
    ) AS known
    FROM incoming i
  ),
  stored AS (
    SELECT d.day, d.user_id, s.n, s.bytes
    FROM (SELECT DISTINCT day, user_id FROM incoming) AS d
    CROSS JOIN LATERAL (
      SELECT count(*) AS n, coalesce(sum(octet_length(to_json(t.model)::text) - 2) FILTER (WHERE t.model <> $4), 0) AS bytes
      FROM analytics_user_day_model t WHERE t.org_id = $1 AND t.day = d.day AND t.user_id = d.user_id
    ) AS s
  ),
  placed AS (
    SELECT p.*, p.known OR (s.n + row_number() OVER w <= $3 AND s.bytes + sum(p.bytes) OVER w <= $5) AS fits
    FROM present p JOIN stored s ON s.day = p.day AND s.user_id = p.user_id
    WINDOW w AS (PARTITION BY p.day, p.user_id, p.known ORDER BY p.credit_units DESC, p.model, p.tier)
  ),
  m AS (
    SELECT day, user_id, CASE WHEN fits THEN model ELSE $4::text END AS model, CASE WHEN fits THEN tier ELSE 'standard' END AS tier,
           ${modelSums.map((c) => `sum(${c})::bigint AS ${c}`).join(', ')}
    FROM placed GROUP BY 1, 2, 3, 4
  )
  INSERT INTO analytics_user_day_model AS t (org_id, day, user_id, model, tier, ${modelSums.join(', ')})
  SELECT $1::uuid, m.day, m.user_id, m.model, m.tier, ${modelSums.map((c) => `m.${c}`).join(', ')}
  FROM m ORDER BY m.day, m.user_id, m.model, m.tier
  ON CONFLICT (org_id, day, user_id, model, tier) DO UPDATE SET
    ${modelSums.map((c) => `${c} = t.${c} + EXCLUDED.${c}`).join(', ')}`;

const userDayRowsSql = `
  INSERT INTO analytics_user_day AS t (
    org_id, day, user_id, ${userDaySums.join(', ')},
    last_session_at, last_session_level, languages, primary_model, primary_model_tier
  )
  SELECT $1::uuid, u.day, u.user_id, ${userDaySums.map((c) => `u.${c}`).join(', ')},
         timestamptz 'epoch' + u.last_session_ms * interval '1 millisecond', u.last_session_level, u.languages, pm.model, pm.tier
  FROM ${jsonRows(2, userDayColumns)} AS u
  LEFT JOIN LATERAL (${PRIMARY_MODEL_OF('u')}) AS pm ON true
  ON CONFLICT (org_id, day, user_id) DO UPDATE SET
    ${userDaySums.map((c) => `${c} = t.${c} + EXCLUDED.${c}`).join(',\n    ')},
    languages = ARRAY(
      SELECT l FROM (
        SELECT l, sum(octet_length(to_json(l)::text) - 2) OVER (ORDER BY l) AS bytes
        FROM (SELECT DISTINCT l FROM unnest(t.languages || EXCLUDED.languages) AS l ORDER BY l LIMIT ${LANGUAGES_PER_USER_DAY}) AS x
      ) AS y
      WHERE bytes <= ${LANGUAGE_BYTES_PER_USER_DAY} ORDER BY l
    ),
    last_session_at = CASE WHEN ${laterThanStored('EXCLUDED')} THEN EXCLUDED.last_session_at ELSE t.last_session_at END,
    last_session_level = CASE WHEN ${laterThanStored('EXCLUDED')} THEN EXCLUDED.last_session_level ELSE t.last_session_level END,
    primary_model = EXCLUDED.primary_model,
    primary_model_tier = EXCLUDED.primary_model_tier`;

// The (day, kind) locks, of the pairs where the batch brings a name the day does not have yet (a
// batch of known names only counts them as themselves, and a name once stored stays), ordered by
// their key so that two pairs sharing a key cannot be taken in opposite orders. So in the steady
// state, where every name is known, a batch takes none.
const lockDayNamesSql = `
  SELECT count(pg_advisory_xact_lock(${DAY_NAME_LOCKS}, s.h)) FROM (
    SELECT DISTINCT hashtext($1::uuid::text || i.day::text || i.kind) AS h FROM ${jsonRows(2, counterColumns)} AS i
    WHERE NOT EXISTS (
      SELECT 1 FROM analytics_day_counter t
      WHERE t.org_id = $1::uuid AND t.day = i.day AND t.kind = i.kind AND t.name = i.name AND t.name2 = i.name2 AND t.name3 = i.name3
    )
    ORDER BY 1
  ) AS s`;

/** What a counter's names take in a response: each as a JSON string, without its quotes. */
const nameBytes = (t: string) => ['name', 'name2', 'name3'].map((c) => `octet_length(to_json(${t}.${c})::text) - 2`).join(' + ');

// A day keeps at most its bound of names, and of their bytes, per kind ($4, bounds.ts): a name it
// has already is counted as itself; a new one while the day has room, the most counted first (then
// the shortest, so that one long name does not keep out the batch's others); the rest under $5 (OTHER), which is not counted against the bound. The lock of the day and kind,
// taken by the statement before, makes this exact: no other batch adds names to them until this
// one has committed. Each day changed gets a new version (see day-cache.ts), and the credits the
// batch adds to it (the organization's day total, migration 0076).
const sharedRowsSql = `
  WITH incoming AS (SELECT * FROM ${jsonRows(2, counterColumns)} AS c),
  present AS (
    SELECT i.*, ${nameBytes('i')} AS bytes, EXISTS (
      SELECT 1 FROM analytics_day_counter t
      WHERE t.org_id = $1 AND t.day = i.day AND t.kind = i.kind AND t.name = i.name AND t.name2 = i.name2 AND t.name3 = i.name3
    ) AS known
    FROM incoming i
  ),
  -- Materialized: inlined, the planner counted the day's names again for every incoming row.
  stored AS MATERIALIZED (
    SELECT d.day, d.kind, s.n, s.bytes, ($4::text::jsonb -> d.kind ->> 'names')::int AS max_names, ($4::text::jsonb -> d.kind ->> 'bytes')::int AS max_bytes
    FROM (SELECT DISTINCT day, kind FROM incoming) AS d
    CROSS JOIN LATERAL (
      SELECT count(*) AS n, coalesce(sum(${nameBytes('t')}), 0) AS bytes FROM analytics_day_counter t
      WHERE t.org_id = $1 AND t.day = d.day AND t.kind = d.kind AND NOT (t.name = $5 AND t.name2 = '' AND t.name3 = '')
    ) AS s
  ),
  placed AS (
    SELECT p.day, p.kind, p.count, p.name, p.name2, p.name3,
           p.known OR (s.n + row_number() OVER w <= s.max_names AND s.bytes + sum(p.bytes) OVER w <= s.max_bytes) AS fits
    FROM present p JOIN stored s ON s.day = p.day AND s.kind = p.kind
    WINDOW w AS (PARTITION BY p.day, p.kind, p.known ORDER BY p.count DESC, p.bytes, p.name, p.name2, p.name3)
  ),
  counted AS (
    SELECT day, kind, CASE WHEN fits THEN name ELSE $5::text END AS name, CASE WHEN fits THEN name2 ELSE '' END AS name2,
           CASE WHEN fits THEN name3 ELSE '' END AS name3, sum(count)::bigint AS count
    FROM placed GROUP BY 1, 2, 3, 4, 5
  ),
  counters AS (
    INSERT INTO analytics_day_counter AS t (org_id, day, kind, name, name2, name3, count)
    SELECT $1::uuid, c.day, c.kind, c.name, c.name2, c.name3, c.count
    FROM counted AS c ORDER BY c.day, c.kind, c.name, c.name2, c.name3
    ON CONFLICT (org_id, day, kind, name, name2, name3) DO UPDATE SET count = t.count + EXCLUDED.count
  )
  INSERT INTO analytics_day_version AS t (org_id, day, version, credit_units)
  SELECT $1::uuid, d.day, nextval('analytics_day_version_seq'), d.units FROM unnest($3::date[], $6::bigint[]) AS d(day, units)
  ON CONFLICT (org_id, day) DO UPDATE SET version = EXCLUDED.version, credit_units = t.credit_units + EXCLUDED.credit_units`;

// The same rule as rollups.ts laterSession: later instant, then the greater level.
function laterThanStored(x: string): string {
  return `${x}.last_session_at IS NOT NULL AND (t.last_session_at IS NULL OR (${x}.last_session_at, ${x}.last_session_level) > (t.last_session_at, t.last_session_level))`;
}

/**
 * Adds the deltas of newly stored events to the rollup tables, inside the ingestion transaction:
 * five statements sent together (see above) as writes (`db.write`, which joins the caller's
 * transaction), so that COMMIT goes out with them rather than a round trip later (db.ts).
 */
export function writeRollups(db: Transaction, orgId: string, d: RollupDeltas): void {
  const models = d.models.length > 0 && [
    orgId,
    JSON.stringify(d.models.map((m) => [m.day, m.userId, m.model, m.tier, m.creditUnits.toString(), ...m.counts])),
    MODELS_PER_USER_DAY,
    OTHER,
    MODEL_BYTES_PER_USER_DAY,
  ];
  const userDays = [
    orgId,
    JSON.stringify(
      d.userDays.map((u) => [
        u.day,
        u.userId,
        u.creditUnits.toString(),
        u.lastSession?.ms ?? null,
        u.lastSession?.level ?? null,
        keptLanguages(u.languages),
        ...u.counts,
      ]),
    ),
  ];
  const credits = new Map<string, bigint>();
  for (const u of d.userDays) credits.set(u.day, (credits.get(u.day) ?? 0n) + u.creditUnits);
  const days = [...credits.keys()].sort();
  const shared = [
    orgId,
    JSON.stringify(d.counters.map((c) => [c.day, c.kind, c.names[0], c.names[1], c.names[2], c.count])),
    // Every event adds to its user-day row, so these are all the days the batch changes (sorted).
    days,
    NAMES_JSON,
    OTHER,
    // The organization's credits of each of those days: its user-day rows' sum, kept beside them.
    days.map((day) => credits.get(day)!.toString()),
  ];
  db.write(lockUserDaysSql, [orgId, d.userDays.map((u) => u.day), d.userDays.map((u) => u.userId)]);
  if (models) db.write(modelRowsSql, models);
  db.write(userDayRowsSql, userDays);
  if (d.counters.length > 0) db.write(lockDayNamesSql, shared.slice(0, 2));
  db.write(sharedRowsSql, shared);
}
