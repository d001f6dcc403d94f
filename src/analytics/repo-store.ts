import type { Transaction } from '../core/db/db.js';
import { jsonRows } from './rollup-store.js';
import { REPO_COUNTERS, type RepoDeltas } from './repo-rollups.js';

/** The key space of the session locks (the user-day and day-name locks are 727140002 and 727140003). */
const SESSION_LOCKS = 727140075;
const sums = ['credit_units', ...REPO_COUNTERS];
const counterColumns = sums.map((c) => [c, 'bigint'] as const);
const sessionDayColumns = [['user_id', 'uuid'], ['session_id', 'text'], ['day', 'date'], ...counterColumns] as const;
const hintColumns = [
  ['user_id', 'uuid'],
  ['session_id', 'text'],
  ['repo_id', 'text'],
  ['repo_url', 'text'],
  ['branch', 'text'],
  ['commit_hash', 'text'],
  ['rank', 'int'],
] as const;
const addSums = sums.map((c) => `${c} = t.${c} + EXCLUDED.${c}`).join(', ');

// Each session a batch touches is locked first (to the end of the transaction), so that a
// session's attribution and its usage never pass each other: whichever commits second sees the
// other's rows, and the usage lands on the repository exactly once (docs/analytics.md). Sessions
// share SESSION_BUCKETS locks, taken in order: a lock per session would let one export of 20,000
// sessions fill the server's lock table (out of shared memory, answered 503).
const SESSION_BUCKETS = 64;
const lockSessionsSql = `
  SELECT count(pg_advisory_xact_lock(${SESSION_LOCKS}, b)) FROM (
    SELECT DISTINCT hashtext($1 || k.user_id::text || k.session_id) & ${SESSION_BUCKETS - 1} AS b
    FROM unnest($2::uuid[], $3::text[]) AS k(user_id, session_id) ORDER BY b
  ) AS buckets`;

// A better source than the one kept replaces it (events/repository.ts); a session whose repository
// changes takes its usage so far along: its session-days leave the repository it had (if any) and
// join the new one, netted per day, person and repository so that one row is written once.
const attributeSql = `
  WITH h AS (SELECT * FROM ${jsonRows(2, hintColumns)} AS h),
  prev AS (
    SELECT s.user_id, s.session_id, s.repo_id FROM analytics_session_repo s JOIN h ON s.user_id = h.user_id AND s.session_id = h.session_id
    WHERE s.org_id = $1
  ),
  up AS (
    INSERT INTO analytics_session_repo AS t (org_id, user_id, session_id, repo_id, repo_url, branch, commit_hash, rank)
    SELECT $1::uuid, h.user_id, h.session_id, h.repo_id, h.repo_url, h.branch, h.commit_hash, h.rank FROM h ORDER BY h.user_id, h.session_id
    ON CONFLICT (org_id, user_id, session_id) DO UPDATE SET
      repo_id = EXCLUDED.repo_id, repo_url = EXCLUDED.repo_url, branch = EXCLUDED.branch, commit_hash = EXCLUDED.commit_hash, rank = EXCLUDED.rank
    WHERE EXCLUDED.rank < t.rank
    RETURNING t.user_id, t.session_id, t.repo_id
  ),
  changed AS (
    SELECT up.user_id, up.session_id, up.repo_id AS new_repo, prev.repo_id AS old_repo
    FROM up LEFT JOIN prev ON prev.user_id = up.user_id AND prev.session_id = up.session_id
    WHERE prev.repo_id IS DISTINCT FROM up.repo_id
  ),
  moves AS (
    SELECT d.day, d.user_id, x.repo_id, ${sums.map((c) => `x.sign * d.${c} AS ${c}`).join(', ')}
    FROM analytics_session_day d JOIN changed c ON d.org_id = $1 AND d.user_id = c.user_id AND d.session_id = c.session_id
    CROSS JOIN LATERAL (VALUES (c.new_repo, 1), (c.old_repo, -1)) AS x(repo_id, sign)
    WHERE x.repo_id IS NOT NULL
  )
  INSERT INTO analytics_repo_day AS t (org_id, day, repo_id, user_id, ${sums.join(', ')})
  SELECT $1::uuid, day, repo_id, user_id, ${sums.map((c) => `sum(${c})::bigint`).join(', ')}
  FROM moves GROUP BY day, repo_id, user_id ORDER BY day, repo_id, user_id
  ON CONFLICT (org_id, day, repo_id, user_id) DO UPDATE SET ${addSums}`;

const sessionDaysSql = `
  INSERT INTO analytics_session_day AS t (org_id, user_id, session_id, day, ${sums.join(', ')})
  SELECT $1::uuid, i.user_id, i.session_id, i.day, ${sums.map((c) => `i.${c}`).join(', ')} FROM ${jsonRows(2, sessionDayColumns)} AS i
  ORDER BY i.user_id, i.session_id, i.day
  ON CONFLICT (org_id, user_id, session_id, day) DO UPDATE SET ${addSums}`;

// After the attribution above (a statement of its own, so that it sees it): the batch's usage of
// attributed sessions, summed per day, repository and person.
const repoDaysSql = `
  INSERT INTO analytics_repo_day AS t (org_id, day, repo_id, user_id, ${sums.join(', ')})
  SELECT $1::uuid, i.day, s.repo_id, i.user_id, ${sums.map((c) => `sum(i.${c})::bigint`).join(', ')}
  FROM ${jsonRows(2, sessionDayColumns)} AS i
  JOIN analytics_session_repo s ON s.org_id = $1 AND s.user_id = i.user_id AND s.session_id = i.session_id
  GROUP BY i.day, s.repo_id, i.user_id ORDER BY i.day, s.repo_id, i.user_id
  ON CONFLICT (org_id, day, repo_id, user_id) DO UPDATE SET ${addSums}`;

/**
 * Writes a batch's repository rollups inside its transaction (after the user-day rollups): locks
 * its sessions, records the repositories it tells of (moving earlier usage), then adds its usage to
 * its sessions' days and to their repositories'. All as writes, sent together.
 */
export function writeRepoRollups(db: Transaction, orgId: string, d: RepoDeltas): void {
  if (d.sessionDays.length === 0 && d.hints.length === 0) return;
  const sessions = [...new Map([...d.sessionDays, ...d.hints].map((s) => [`${s.userId}\0${s.sessionId}`, s])).entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, s]) => s);
  db.write(lockSessionsSql, [orgId, sessions.map((s) => s.userId), sessions.map((s) => s.sessionId)]);
  if (d.hints.length > 0) {
    const hints = d.hints.map(({ userId, sessionId, hint: h }) => [userId, sessionId, h.id, h.url, h.branch, h.commit, h.rank]);
    db.write(attributeSql, [orgId, JSON.stringify(hints)]);
  }
  if (d.sessionDays.length === 0) return;
  const rows = JSON.stringify(d.sessionDays.map((s) => [s.userId, s.sessionId, s.day, s.creditUnits.toString(), ...s.counts]));
  db.write(sessionDaysSql, [orgId, rows]);
  db.write(repoDaysSql, [orgId, rows]);
}
