import { appSplit, percent, score, type LevelSection } from './model.js';

/** In a monorepo, where a criterion fails and where it passes, so a reader knows which application to fix. */
function AppsOf({ rationale }: { rationale: string }) {
  const split = appSplit(rationale);
  if (!split || (!split.fails.length && !split.notApplicable.length)) return null;
  const line = (label: string, apps: string[], testId: string) =>
    apps.length ? (
      <li data-testid={testId}>
        {label}{' '}
        {apps.map((a, i) => (
          <span key={a}>
            {i ? ', ' : ''}
            <code>{a}</code>
          </span>
        ))}
      </li>
    ) : null;
  return (
    <ul className="apps small">
      {line('Fails in', split.fails, 'apps-failing')}
      {line('Passes in', split.passes, 'apps-passing')}
      {line('Does not apply in', split.notApplicable, 'apps-not-applicable')}
    </ul>
  );
}

/** One level of a report: its criteria as `[X/Y]` rows with their rationale; locked until the level below reaches 80 %. */
export function LevelSectionCard({ section }: { section: LevelSection }) {
  const { level, rows, rate, locked } = section;
  const titleId = `level-${level}-title`;
  return (
    <section className={`card level${locked ? ' locked' : ''}`} aria-labelledby={titleId} data-testid={`level-${level}`}>
      <h2 id={titleId}>
        {`Level ${level}`} <span className="muted">{locked ? '· locked' : `· ${percent(rate)} passed`}</span>
      </h2>
      {locked ? <p className="muted">Locked: level {level - 1} has not reached 80 %. The criteria below are shown for what comes next.</p> : null}
      <table>
        <caption className="visually-hidden">{`Criteria of level ${level}`}</caption>
        <thead>
          <tr>
            <th scope="col">Criterion</th>
            <th scope="col">Result</th>
            <th scope="col">Rationale</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const s = score(r.evaluation);
            return (
              <tr key={r.id} data-testid={`criterion-${r.id}`}>
                <th scope="row">
                  <code>{r.id}</code>
                  <div className="muted small">{r.pillar}</div>
                </th>
                <td>
                  <span className={`score ${s.state}`}>{s.text}</span>
                </td>
                <td>
                  {r.evaluation ? r.evaluation.rationale || <span className="muted">no rationale given</span> : <span className="muted">{r.checks}</span>}
                  {r.evaluation ? <AppsOf rationale={r.evaluation.rationale} /> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
