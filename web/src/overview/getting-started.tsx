import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { summaryQuery } from '../readiness/queries.js';
import { invitationsQuery, membersQuery, userLimitsQuery } from '../settings/queries.js';
import { todayQuery } from '../usage/queries.js';
import { CopyButton, ErrorNote } from '../ui/parts.js';

/** The OTLP settings of Claude Code for this service (docs/otlp.md, "Setup per client"), with its own address. */
export function agentSettings(origin: string): string {
  return [
    'export CLAUDE_CODE_ENABLE_TELEMETRY=1',
    'export OTEL_METRICS_EXPORTER=otlp',
    'export OTEL_LOGS_EXPORTER=otlp',
    'export OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf',
    `export OTEL_EXPORTER_OTLP_ENDPOINT=${origin}`,
    'export OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer $ORGCTL_API_KEY"',
    'export OTEL_METRICS_INCLUDE_ENTRYPOINT=true',
  ].join('\n');
}

/** A command to copy; on a narrow screen it scrolls, so it takes the keyboard's focus too. */
function Command({ text, testId, label, name }: { text: string; testId: string; label: string; name: string }) {
  return (
    <>
      <pre className="command" tabIndex={0} role="region" aria-label={name}>
        <code data-testid={testId}>{text}</code>
      </pre>
      <CopyButton text={text} label={label} />
    </>
  );
}

interface Step {
  id: string;
  title: string;
  done: boolean;
  body: ReactNode;
}

/**
 * The first day of an organization, on the overview of owners and managers: four steps, each
 * ticked by what has happened (not by a click): usage received (native events or OTLP), a second
 * member or a pending invitation, a limit set, a readiness report. Gone once all four are done.
 */
export function GettingStarted() {
  const today = useQuery(todayQuery);
  const members = useQuery(membersQuery);
  const invitations = useQuery(invitationsQuery);
  const limits = useQuery(userLimitsQuery);
  const summary = useQuery(summaryQuery);
  const queries = [today, members, invitations, limits, summary];
  const error = queries.find((q) => q.error)?.error;
  if (error)
    return (
      <section className="card getting-started" aria-labelledby="getting-started-title">
        <h2 id="getting-started-title">Getting started</h2>
        <ErrorNote error={error} />
      </section>
    );
  // Nothing until every fact is known: a panel that appears and then vanishes would be noise.
  if (!today.data || !members.data || !invitations.data || !limits.data || !summary.data) return null;
  const origin = window.location.origin;
  // The key from ORGCTL_API_KEY: on the command line, every user of the machine sees it (ps).
  const evaluate = `orgctl readiness evaluate --upload --url ${origin}`;
  const steps: Step[] = [
    {
      id: 'agent',
      title: 'Connect an agent',
      done: today.data.organization?.first_active_date != null,
      body: (
        <>
          <p>
            Point the agent&apos;s OpenTelemetry exporter at this service, with a key (<Link to="/settings/api-keys">create a key</Link> in Settings). For
            Claude Code, in the environment:
          </p>
          <Command text={agentSettings(origin)} testId="agent-settings" label="Copy settings" name="Agent settings" />
          <p className="muted">
            Droid, Codex and Gemini CLI take the same address and key (docs/otlp.md of orgctl). This step ticks itself when the first usage arrives.
          </p>
        </>
      ),
    },
    {
      id: 'team',
      title: 'Invite the team',
      done: members.data.members.length > 1 || invitations.data.invitations.length > 0,
      body: (
        <p>
          Give each person an invitation link (<Link to="/settings/members">invite people</Link> in Settings).
        </p>
      ),
    },
    {
      id: 'limit',
      title: 'Set a limit',
      done: limits.data.global !== null || limits.data.users.length > 0,
      body: (
        <p>
          Give everyone a monthly allowance of Standard Credits, or some people their own (<Link to="/settings/usage-limits">set the limits</Link> in Settings).
        </p>
      ),
    },
    {
      id: 'evaluate',
      title: 'Evaluate a repository',
      done: summary.data.organization.repositories > 0,
      body: (
        <>
          <p>
            In a git checkout of a repository, run the readiness evaluator with your API key in <code>ORGCTL_API_KEY</code>; it uploads its report here.
          </p>
          <Command text={evaluate} testId="getting-started-evaluate" label="Copy command" name="Evaluate command" />
        </>
      ),
    },
  ];
  const done = steps.filter((s) => s.done).length;
  if (done === steps.length) return null;
  return (
    <section className="card getting-started" id="getting-started" aria-labelledby="getting-started-title">
      <h2 id="getting-started-title">Getting started</h2>
      <p className="muted" data-testid="getting-started-progress">
        {done} of {steps.length} done
      </p>
      <ol>
        {steps.map((s) => (
          <li key={s.id} data-testid={`step-${s.id}`} data-done={s.done} className={s.done ? 'done' : undefined}>
            <h3>
              <span className="tick" aria-hidden="true">
                {s.done ? '✓' : ''}
              </span>
              {s.title}
              {s.done ? <span className="step-state"> (done)</span> : null}
            </h3>
            {s.done ? null : s.body}
          </li>
        ))}
      </ol>
    </section>
  );
}
