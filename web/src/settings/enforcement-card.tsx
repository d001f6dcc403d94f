import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, type Body } from '../api.js';
import { allowanceKey } from '../usage/queries.js';
import { ErrorNote, Field, QueryState } from '../ui/parts.js';
import { enforcementQuery, key } from './queries.js';

type Policy = Body<'/api/v0/organization/usage/enforcement', 'get'>;

const MODES: Record<Policy['mode'], string> = {
  off: 'Off: limits are advisory; the hook never warns or blocks',
  warn: 'Warn: the hook warns at each threshold and at the limit, and never blocks',
  block: 'Block: the hook warns at each threshold and refuses prompts once the limit is reached',
};
const UNREACHABLE: Record<Policy['unreachable'], string> = {
  open: 'Let prompts through',
  closed: 'Refuse prompts (in block mode)',
};

const thresholdsText = (t: number[]): string => (t.length === 0 ? 'none' : t.map((p) => `${p}%`).join(', '));

/** Whole percents as typed (commas or spaces between, % allowed); undefined when not. Range and order are the API's to check, so its error is what the person reads. */
function parseThresholds(text: string): number[] | undefined {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.replace(/%$/, ''))
    .filter(Boolean);
  return parts.every((p) => /^\d{1,3}$/.test(p)) ? parts.map(Number) : undefined;
}

function EnforcementForm({ policy }: { policy: Policy }) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState(policy.mode);
  const [thresholds, setThresholds] = useState(policy.thresholds.join(', '));
  const [unreachable, setUnreachable] = useState(policy.unreachable);
  const [bad, setBad] = useState(false);
  const save = useMutation({
    mutationFn: (body: Policy) => call(api.PUT('/api/v0/organization/usage/enforcement', { body })),
    onSuccess: () => {
      // The allowance carries the policy, and the change is in the audit log.
      for (const queryKey of [key.limits, key.limitsAudit, allowanceKey]) void queryClient.invalidateQueries({ queryKey });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseThresholds(thresholds);
    setBad(parsed === undefined);
    if (parsed !== undefined) save.mutate({ mode, thresholds: parsed, unreachable });
  };
  return (
    <form onSubmit={submit}>
      <Field label="Mode">
        <select value={mode} onChange={(e) => setMode(e.target.value as Policy['mode'])}>
          {Object.entries(MODES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Warning thresholds (percent of the limit, ascending, up to 5)">
        <input type="text" autoComplete="off" placeholder="80, 95" value={thresholds} onChange={(e) => setThresholds(e.target.value)} />
      </Field>
      <Field label="When the service cannot be reached">
        <select value={unreachable} onChange={(e) => setUnreachable(e.target.value as Policy['unreachable'])}>
          {Object.entries(UNREACHABLE).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <button type="submit" disabled={save.isPending}>
        Save enforcement
      </button>
      {bad ? (
        <p className="error" role="alert">
          Enter whole percents separated by commas, such as 80, 95 (or leave it empty for none).
        </p>
      ) : null}
      {save.isSuccess ? <p role="status">Enforcement saved.</p> : null}
      <ErrorNote error={save.error} />
    </form>
  );
}

/** What the client-side hook does near and at a limit; everyone reads it, owners and managers change it (the API decides). */
export function EnforcementCard({ manager }: { manager: boolean }) {
  const policy = useQuery(enforcementQuery);
  return (
    <section className="card" aria-labelledby="enforcement-title">
      <h2 id="enforcement-title">Enforcement</h2>
      <p className="muted">What the hook on each person&apos;s computer does as they near and reach their limit.</p>
      <QueryState query={policy} />
      {policy.data ? (
        <>
          <dl>
            <dt>Mode</dt>
            <dd data-testid="enforcement-mode">{MODES[policy.data.mode]}</dd>
            <dt>Warning thresholds</dt>
            <dd data-testid="enforcement-thresholds">{thresholdsText(policy.data.thresholds)}</dd>
            <dt>When the service cannot be reached</dt>
            <dd data-testid="enforcement-unreachable">{UNREACHABLE[policy.data.unreachable]}</dd>
          </dl>
          {manager ? <EnforcementForm policy={policy.data} /> : null}
        </>
      ) : null}
    </section>
  );
}
