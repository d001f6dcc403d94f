import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { When } from '../ui/dates.js';
import { CopyButton, ErrorNote, Page, QueryState } from '../ui/parts.js';
import { DeleteButton, InstallDepsButton, RenameForm } from './computer-actions.js';
import { followedStep, isLive, useLiveComputer, type Computer, type StepLog } from './live-computer.js';
import { StatusBadge } from './status-badge.js';

/** The service's own address as the agent reaches it: the computer's relayAgentUrl without its path. */
const serviceUrl = (c: Computer): string => c.relayAgentUrl?.replace(/\/api\/v0\/computers\/.*$/, '') ?? window.location.origin;

/** A word for a POSIX shell: as is when it is plain, else in single quotes. */
const shellWord = (w: string): string => (/^[A-Za-z0-9._@%+=:,-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

function AgentCommand({ computer }: { computer: Computer }) {
  const url = serviceUrl(computer);
  const install = `npm install -g ${url}/download/orgctl.tgz`;
  const agent = `orgctl agent --url ${url} --computer ${shellWord(computer.name)}`;
  return (
    <div className="card" aria-labelledby="agent-title">
      <h2 id="agent-title">Run the agent on the machine</h2>
      <p>
        On the machine that is this computer (it needs git, Node.js 20 and the package managers of the repositories), install orgctl from this service and start
        the agent with an API key of yours (Settings, API keys) in <code>ORGCTL_API_KEY</code>, not on the command line, where other users of the machine see
        it. The agent registers the machine, clones and installs, and reports every step here.
      </p>
      <pre className="command" tabIndex={0} role="region" aria-label="Install command">
        <code>{install}</code>
      </pre>
      <CopyButton text={install} label="Copy install command" />
      <pre className="command" tabIndex={0} role="region" aria-label="Agent command">
        <code data-testid="agent-command">{agent}</code>
      </pre>
      <CopyButton text={agent} label="Copy agent command" />
    </div>
  );
}

function Steps({ computer, shown, onShow }: { computer: Computer; shown: string | undefined; onShow: (id: string) => void }) {
  return (
    <table>
      <caption>Provisioning steps</caption>
      <thead>
        <tr>
          <th scope="col">Step</th>
          <th scope="col">Status</th>
          <th scope="col">Started</th>
          <th scope="col">Completed</th>
          <th scope="col">Log</th>
        </tr>
      </thead>
      <tbody>
        {computer.provisioningSteps.map((s) => (
          <tr key={s.id} data-testid={`step-${s.id}`}>
            <th scope="row">
              {s.name} <code className="muted small">{s.id}</code>
              {s.error ? <div className="error">{s.error}</div> : null}
            </th>
            <td>
              <StatusBadge status={s.status} />
            </td>
            <td>
              <When ms={s.startedAt} />
            </td>
            <td>
              <When ms={s.completedAt} />
            </td>
            <td>
              {s.id === shown ? (
                'shown below'
              ) : s.status === 'skipped' ? null : (
                <button type="button" className="secondary" onClick={() => onShow(s.id)}>
                  Show <span className="visually-hidden">{`the log of ${s.name}`}</span>
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LogPanel({ computer, log, following }: { computer: Computer; log: StepLog | undefined; following: boolean }) {
  const ref = useRef<HTMLPreElement>(null);
  const text = log?.log ?? '';
  useEffect(() => {
    // Follows the end of the log as it grows, as a terminal does.
    if (following && ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [text, following]);
  const step = computer.provisioningSteps.find((s) => s.id === log?.stepId);
  if (!log || !step) return <p className="muted">No step has written any output yet.</p>;
  return (
    <div className="card" aria-labelledby="log-title">
      <h2 id="log-title">
        {`Log of ${step.name}`}{' '}
        {log.session ? (
          <span className="muted">{`· install session ${log.session.id.slice(0, 8)}, ${log.session.status}${log.session.exitCode === null ? '' : `, exit code ${log.session.exitCode}`}`}</span>
        ) : null}
      </h2>
      {log.truncated ? <p className="muted">The beginning of this log was dropped: the service keeps its tail.</p> : null}
      <pre ref={ref} className="log" tabIndex={0} role="log" aria-labelledby="log-title" data-testid="step-log">
        {text || (step.status === 'pending' ? 'Waiting for the step to start…' : '(no output)')}
      </pre>
      {isLive(computer) ? <p className="muted small">Following live: updated every second.</p> : null}
    </div>
  );
}

export function ComputerPage() {
  const { computerId } = useParams({ from: '/shell/computers/$computerId' });
  const [wanted, setWanted] = useState<string | null>(null);
  const { computer, log, error, restart } = useLiveComputer(computerId, wanted);
  if (!computer)
    return (
      <Page title="Computer">
        <QueryState query={{ error, isLoading: !error }} />
        <p>
          <Link to="/computers">All computers</Link>
        </p>
      </Page>
    );
  const shown = followedStep(computer, wanted)?.id;
  return (
    <Page title={computer.name}>
      <p>
        <Link to="/computers">All computers</Link>
      </p>
      <ErrorNote error={error} />
      <div className="card" aria-labelledby="summary-title">
        <h2 id="summary-title" className="visually-hidden">
          Summary
        </h2>
        <dl className="stats">
          <div>
            <dt>Status</dt>
            <dd data-testid="computer-status">
              <StatusBadge status={computer.status} />
            </dd>
          </div>
          <div>
            <dt>Provider</dt>
            <dd>{computer.providerType}</dd>
          </div>
          <div>
            <dt>Host</dt>
            <dd>{computer.hostname ?? '—'}</dd>
          </div>
          <div>
            <dt>Remote user</dt>
            <dd>{computer.remoteUser ?? '—'}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <When ms={computer.createdAt} />
            </dd>
          </div>
        </dl>
        {computer.clonedRepoDirectories?.length ? (
          <p className="muted">
            Cloned into{' '}
            {computer.clonedRepoDirectories.map((d) => (
              <code key={d}>{d} </code>
            ))}
          </p>
        ) : null}
      </div>
      <Steps
        computer={computer}
        shown={shown}
        onShow={(id) => {
          setWanted(id);
        }}
      />
      <LogPanel computer={computer} log={log} following={wanted === null} />
      <div className="card actions" aria-labelledby="actions-title">
        <h2 id="actions-title">Actions</h2>
        <InstallDepsButton
          computer={computer}
          onStarted={(c) => {
            setWanted(null);
            restart(c);
          }}
        />
        <RenameForm computer={computer} onRenamed={(c) => restart(c)} />
        <DeleteButton computer={computer} />
      </div>
      {computer.providerType === 'byom' ? <AgentCommand computer={computer} /> : null}
    </Page>
  );
}
