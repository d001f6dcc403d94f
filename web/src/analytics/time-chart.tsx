import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dayStartMs, utcDay } from '../../../src/core/days.js';
import { Day } from '../ui/dates.js';
import { number } from '../ui/format.js';

export interface ChartSeries {
  label: string;
  values: number[];
}

/** Colours with at least 3:1 contrast on white, told apart by hue. */
const COLORS = ['#1f4fd1', '#c2410c', '#047857', '#7e22ce', '#b91c1c', '#0e7490', '#a16207', '#be185d', '#4d7c0f', '#475569'];
const FILLS = ['#c7d4f6', '#f7cdb6', '#b3e3d0', '#e2c9f5', '#f4c2c2', '#b7e4ee', '#efdcaa', '#f5c4dc', '#d2e6b0', '#d6dbe3'];

/**
 * The line and fill colours of the i-th series: the ten above, then hues a golden angle apart
 * (never the same twice), dark enough for 3:1 on white, alternating two lightnesses so that
 * neighbours in a stack differ in more than hue.
 */
export function seriesColours(i: number): { stroke: string; fill: string } {
  if (i < COLORS.length) return { stroke: COLORS[i]!, fill: FILLS[i]! };
  const hue = Math.round(((i - COLORS.length) * 137.508 + 20) % 360);
  const dark = i % 2 === 0;
  return { stroke: `hsl(${hue} 80% ${dark ? 24 : 30}%)`, fill: `hsl(${hue} 70% ${dark ? 80 : 88}%)` };
}

const DAY_S = 86_400;
/** The x axis steps by whole days (never hours: a 7-day range is not labelled 12am and 12pm). */
const DAY_STEPS = [1, 2, 3, 7, 14, 28, 56, 91, 182, 364].map((d) => d * DAY_S);
const axisNumber = (v: number) => (v >= 1e9 ? `${v / 1e9}G` : v >= 1e6 ? `${v / 1e6}M` : v >= 1e3 ? `${v / 1e3}k` : String(v));

/**
 * A daily time series drawn by uPlot. The legend under it shows each series' value on the day
 * under the pointer; the same numbers are in a table behind "Data table", for screen readers and
 * keyboards. `stacked`: each series is drawn on top of the ones before it (credits by model).
 */
export function TimeChart({
  title,
  days,
  series,
  stacked = false,
  testId,
}: {
  title: string;
  days: string[];
  series: ChartSeries[];
  stacked?: boolean;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [tableOpen, setTableOpen] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = days.map((d) => dayStartMs(d) / 1000);
    // Stacked: the running sums, drawn from the top of the stack down, each filled to zero and
    // painted over by the next lower one; the legend still shows each series' own value.
    let order = series.map((_, i) => i);
    let ys = series.map((s) => s.values);
    if (stacked) {
      const sums: number[][] = [];
      series.forEach((s, i) => sums.push(s.values.map((v, d) => v + (i > 0 ? sums[i - 1]![d]! : 0))));
      order = order.reverse();
      ys = order.map((i) => sums[i]!);
    }
    const opts: uPlot.Options = {
      width: Math.max(320, el.clientWidth),
      height: 260,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true } },
      axes: [
        { space: 90, incrs: DAY_STEPS, values: (_u, ticks) => ticks.map((t) => utcDay(t * 1000)) },
        { size: 56, values: (_u, ticks) => ticks.map(axisNumber) },
      ],
      series: [
        { label: 'Day', value: (_u, v) => (v === null ? '—' : utcDay(v * 1000)) },
        ...order.map((i) => ({
          label: series[i]!.label,
          stroke: seriesColours(i).stroke,
          width: 1.5,
          ...(stacked ? { fill: seriesColours(i).fill } : {}),
          value: (_u: uPlot, _v: number | null, _s: number, idx: number | null) => (idx === null ? '—' : number(series[i]!.values[idx])),
        })),
      ],
    };
    const plot = new uPlot(opts, [xs, ...ys], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(320, el.clientWidth), height: 260 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, stacked]);
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div ref={box} className="chart-box" data-testid={testId ? `${testId}-plot` : undefined} />
      <details onToggle={(e) => setTableOpen(e.currentTarget.open)}>
        <summary>Data table: {title}</summary>
        {tableOpen ? (
          <table>
            <caption>{title} (UTC days)</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map((s) => (
                  <th scope="col" key={s.label} className="num">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d, i) => (
                <tr key={d}>
                  <th scope="row">
                    <Day day={d} />
                  </th>
                  {series.map((s) => (
                    <td key={s.label} className="num">
                      {number(s.values[i])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </details>
    </figure>
  );
}
