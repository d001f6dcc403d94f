import { CopyButton } from '../ui/parts.js';

/** How a report gets here: the evaluator run in a checkout, uploading to this service. */
export function HowToPanel() {
  const origin = window.location.origin;
  const line = `orgctl readiness evaluate --upload --url ${origin}`;
  return (
    <div className="card" aria-labelledby="howto-title">
      <h2 id="howto-title">How to produce a report</h2>
      <p>
        In a git checkout of the repository, run the evaluator: it checks the 84 criteria offline, prints a summary and uploads the report here, with the API
        key in <code>ORGCTL_API_KEY</code> (a key comes from Settings, API keys; not on the command line, where other users of the machine see it), or after{' '}
        <code>orgctl login</code> once, without <code>--url</code> either.
      </p>
      <pre className="command" tabIndex={0} role="region" aria-label="Evaluate command">
        <code data-testid="evaluate-command">{line}</code>
      </pre>
      <CopyButton text={line} label="Copy command" />
      <p className="muted">
        Without <code>--upload</code> it only prints the summary; <code>--json</code> prints the report itself. The repository is named by{' '}
        <code>git remote get-url origin</code>, or <code>--repo-url</code>.
      </p>
    </div>
  );
}
