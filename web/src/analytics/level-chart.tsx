import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { seriesColours } from './time-chart.js';

export interface LevelBar {
  label: string;
  /** null: not enough repositories behind the figure (or nothing to divide by). */
  value: number | null;
}

/**
 * One figure across the readiness levels, as bars drawn by uPlot (the charts' one library). A bar
 * left out is a figure the API withholds; the numbers are also in the table beside the chart, so
 * the chart itself is hidden from screen readers.
 */
export function LevelChart({ title, bars, testId }: { title: string; bars: LevelBar[]; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = bars.map((_, i) => i);
    const opts: uPlot.Options = {
      width: Math.max(320, el.clientWidth),
      height: 220,
      scales: { x: { time: false, range: [-0.5, bars.length - 0.5] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [{ values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? (bars[t]?.label ?? '') : '')), incrs: [1] }, { size: 56 }],
      legend: { show: false },
      cursor: { show: false },
      series: [
        {},
        {
          label: title,
          stroke: seriesColours(0).stroke,
          fill: seriesColours(0).fill,
          width: 1.5,
          paths: uPlot.paths.bars!({ size: [0.6, 80] }),
          points: { show: false },
        },
      ],
    };
    const plot = new uPlot(opts, [xs, bars.map((b) => b.value)], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(320, el.clientWidth), height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [bars, title]);
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div ref={box} className="chart-box" aria-hidden="true" data-testid={testId ? `${testId}-plot` : undefined} />
    </figure>
  );
}
