import type { Queryable } from '../core/db/db.js';
import { MODEL_COUNTERS, USER_DAY_COUNTERS, type RollupDeltas } from './rollups.js';

const userDayColumns = USER_DAY_COUNTERS.join(', ');
const userDaySql = `
  INSERT INTO analytics_user_day AS t (org_id, day, user_id, ${userDayColumns}, last_session_at, last_session_level, languages)
  SELECT $1::uuid, u.day, u.user_id, ${USER_DAY_COUNTERS.map((c) => `u.${c}`).join(', ')}, u.last_session_at, u.last_session_level,
         ARRAY(SELECT jsonb_array_elements_text(u.languages::jsonb))
  FROM unnest($2::date[], $3::uuid[], ${USER_DAY_COUNTERS.map((_, i) => `$${i + 4}::bigint[]`).join(', ')},
              $${USER_DAY_COUNTERS.length + 4}::timestamptz[], $${USER_DAY_COUNTERS.length + 5}::text[], $${USER_DAY_COUNTERS.length + 6}::text[])
       AS u(day, user_id, ${userDayColumns}, last_session_at, last_session_level, languages)
  ON CONFLICT (org_id, day, user_id) DO UPDATE SET
    ${USER_DAY_COUNTERS.map((c) => `${c} = t.${c} + EXCLUDED.${c}`).join(',\n    ')},
    languages = ARRAY(SELECT DISTINCT l FROM unnest(t.languages || EXCLUDED.languages) AS l ORDER BY l),
    last_session_at = CASE WHEN ${laterThanStored('EXCLUDED')} THEN EXCLUDED.last_session_at ELSE t.last_session_at END,
    last_session_level = CASE WHEN ${laterThanStored('EXCLUDED')} THEN EXCLUDED.last_session_level ELSE t.last_session_level END`;

// The same rule as rollups.ts laterSession: later instant, then the greater level.
function laterThanStored(x: string): string {
  return `${x}.last_session_at IS NOT NULL AND (t.last_session_at IS NULL OR (${x}.last_session_at, ${x}.last_session_level) > (t.last_session_at, t.last_session_level))`;
}

const modelColumns = MODEL_COUNTERS.join(', ');
const modelSql = `
  INSERT INTO analytics_user_day_model AS t (org_id, day, user_id, model, tier, ${modelColumns})
  SELECT $1::uuid, * FROM unnest($2::date[], $3::uuid[], $4::text[], $5::text[], ${MODEL_COUNTERS.map((_, i) => `$${i + 6}::bigint[]`).join(', ')})
  ON CONFLICT (org_id, day, user_id, model, tier) DO UPDATE SET
    ${MODEL_COUNTERS.map((c) => `${c} = t.${c} + EXCLUDED.${c}`).join(', ')}`;

const counterSql = `
  INSERT INTO analytics_day_counter AS t (org_id, day, kind, name, name2, name3, count)
  SELECT $1::uuid, * FROM unnest($2::date[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
  ON CONFLICT (org_id, day, kind, name, name2, name3) DO UPDATE SET count = t.count + EXCLUDED.count`;

/** Adds the deltas of newly stored events to the rollup tables; runs inside the ingestion transaction. */
export async function writeRollups(tx: Queryable, orgId: string, d: RollupDeltas): Promise<void> {
  if (d.userDays.length > 0) {
    await tx.query(userDaySql, [
      orgId,
      d.userDays.map((u) => u.day),
      d.userDays.map((u) => u.userId),
      ...USER_DAY_COUNTERS.map((c) => d.userDays.map((u) => u.counts[c].toString())),
      d.userDays.map((u) => (u.lastSession ? new Date(u.lastSession.ms).toISOString() : null)),
      d.userDays.map((u) => u.lastSession?.level ?? null),
      d.userDays.map((u) => JSON.stringify([...u.languages].sort())),
    ]);
  }
  if (d.models.length > 0) {
    await tx.query(modelSql, [
      orgId,
      d.models.map((m) => m.day),
      d.models.map((m) => m.userId),
      d.models.map((m) => m.model),
      d.models.map((m) => m.tier),
      ...MODEL_COUNTERS.map((c) => d.models.map((m) => m.counts[c].toString())),
    ]);
  }
  if (d.counters.length > 0) {
    await tx.query(counterSql, [
      orgId,
      d.counters.map((c) => c.day),
      d.counters.map((c) => c.kind),
      d.counters.map((c) => c.names[0]),
      d.counters.map((c) => c.names[1]),
      d.counters.map((c) => c.names[2]),
      d.counters.map((c) => c.count.toString()),
    ]);
  }
}
