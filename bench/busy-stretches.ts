import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The longest time the main thread of a process profiled with `--cpu-prof` was busy without a
 * break (no idle sample for 2 ms), between `fromMs` and `toMs` after the profile began, and the
 * functions that took most of it: how long the event loop could not answer anything, whatever
 * else the machine was doing (a probe's own time also holds the machine's load).
 */
export function longestBusyStretch(dir: string, fromMs: number, toMs: number): { ms: number; mostly: string } {
  const file = readdirSync(dir).find((f) => /\.0\.\d+\.cpuprofile$/.test(f));
  if (!file) throw new Error(`no main-thread profile in ${dir}`);
  const p = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  let best = { ms: 0, fns: new Map<string, number>() };
  let run: { start: number; end: number; fns: Map<string, number> } | undefined;
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i]!;
    const at = (t - p.startTime) / 1000;
    if (at < fromMs || at > toMs) continue;
    const frame = byId.get(p.samples[i]!)!.callFrame;
    if (frame.functionName === '(idle)') {
      if (run && t - run.end > 2000) run = undefined;
      continue;
    }
    run ??= { start: t, end: t, fns: new Map() };
    run.end = t;
    const name = `${frame.functionName || '(anonymous)'} ${path.basename(frame.url)}`.trim();
    run.fns.set(name, (run.fns.get(name) ?? 0) + p.timeDeltas[i]!);
    if ((run.end - run.start) / 1000 > best.ms) best = { ms: (run.end - run.start) / 1000, fns: run.fns };
  }
  const mostly = [...best.fns]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, us]) => `${name} ${(us / 1000).toFixed(0)} ms`)
    .join(', ');
  return { ms: best.ms, mostly };
}
