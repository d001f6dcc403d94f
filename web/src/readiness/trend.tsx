import { percent, type RepositorySummary } from './model.js';

/**
 * The pass rate over a repository's reports, oldest to newest, as a small line, with the change
 * since the report before in words (the line alone says nothing to a screen reader).
 */
export function Trend({ history }: { history: RepositorySummary['history'] }) {
  const points = [...history].reverse().map((h) => h.passRate);
  const last = points.at(-1);
  const before = points.at(-2);
  const change = last === undefined || before === undefined ? null : last - before;
  const words = change === null ? 'first report' : change === 0 ? 'no change' : `${change > 0 ? '+' : '−'}${percent(Math.abs(change))}`;
  const w = 80;
  const h = 20;
  const xy = points.map((p, i) => `${points.length === 1 ? w / 2 : (i / (points.length - 1)) * w},${(h - 2 - p * (h - 4)).toFixed(1)}`);
  return (
    <span className="trend">
      <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} aria-hidden="true" focusable="false">
        <polyline points={xy.join(' ')} fill="none" stroke="currentColor" strokeWidth="1.5" />
        {xy.length === 1 ? <circle cx={w / 2} cy={xy[0]!.split(',')[1]} r="2" fill="currentColor" /> : null}
      </svg>{' '}
      <span data-testid="trend">{words}</span>
    </span>
  );
}
