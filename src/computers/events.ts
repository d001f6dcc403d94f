import type { Queryable } from '../core/db/db.js';
import type { Outbox } from '../core/outbox.js';
import { STATUS } from './step-machine.js';

/**
 * Tells the webhooks of a step that settled, in the transaction that settled it: computer.failed
 * when it failed, computer.ready when it was the last step to finish and every step is done
 * (succeeded, or skipped for no failure), that is when the computer became active.
 */
export async function stepSettled(
  db: Queryable,
  outbox: Outbox,
  computerId: string,
  step: { stepId: string; status: string; error: string | null },
): Promise<void> {
  const rows = await db.query<{ org_id: string; name: string; provider: string; owner_id: string; open: number }>(
    `SELECT c.org_id, c.name, c.provider, c.owner_id,
       (SELECT count(*)::int FROM computer_steps s WHERE s.computer_id = c.id
          AND NOT (s.status = '${STATUS.succeeded}' OR (s.status = '${STATUS.skipped}' AND s.error IS NULL))) AS open
     FROM computers c WHERE c.id = $1`,
    [computerId],
  );
  const c = rows[0];
  if (!c) return;
  const data = { computerId, name: c.name, provider: c.provider, ownerId: c.owner_id };
  if (step.status === STATUS.failed) await outbox.emit(c.org_id, 'computer.failed', { ...data, stepId: step.stepId, error: step.error ?? 'failed' });
  else if (c.open === 0) await outbox.emit(c.org_id, 'computer.ready', data);
}
