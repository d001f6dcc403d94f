/**
 * Where a phase's CPU goes, read from Linux's scheduler counts (/proc/<pid>/task/<tid>/schedstat:
 * nanoseconds on a core, nanoseconds ready but waiting for one): this process's main thread,
 * which runs the service, all of this process's threads (the main thread, V8's background
 * threads, libuv's pool, the sender's thread), and every process named `postgres` on this
 * machine (the server's backends and its own workers). On a machine of few cores the main
 * thread's wait for a core tells how much the other threads hold it back. Undefined where /proc
 * has no such counts (not Linux).
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadTimes {
  mainOnCpuNs: number;
  mainWaitingNs: number;
  processOnCpuNs: number;
  postgresOnCpuNs: number;
}

/** On a core, and waiting for one, in nanoseconds: the first two fields of a schedstat file; undefined when it is gone. */
function schedstat(file: string): [number, number] | undefined {
  try {
    const [onCpu, waiting] = readFileSync(file, 'utf8').split(' ');
    return [Number(onCpu), Number(waiting)];
  } catch {
    // The thread or process ended between the listing and the read (or there are no such counts).
    return undefined;
  }
}

function isPostgres(pid: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false;
  }
}

export function threadTimes(): ThreadTimes | undefined {
  const main = schedstat(`/proc/self/task/${process.pid}/schedstat`);
  if (main === undefined) return undefined;
  let processOnCpuNs = 0;
  for (const tid of readdirSync('/proc/self/task')) processOnCpuNs += schedstat(`/proc/self/task/${tid}/schedstat`)?.[0] ?? 0;
  let postgresOnCpuNs = 0;
  // A PostgreSQL process has one thread: its own schedstat is all of it.
  for (const pid of readdirSync('/proc')) if (/^\d+$/.test(pid) && isPostgres(pid)) postgresOnCpuNs += schedstat(`/proc/${pid}/schedstat`)?.[0] ?? 0;
  return { mainOnCpuNs: main[0], mainWaitingNs: main[1], processOnCpuNs, postgresOnCpuNs };
}

/**
 * One line on the CPU between two readings, per item: the main thread's (and the share of the
 * phase it waited for a core), the whole process's, and PostgreSQL's when the server runs here
 * (`postgres`; PGlite runs in a thread of this process). The counts of a thread that ended
 * within the phase are lost; the bench's threads live through it.
 */
export function describeThreadTimes(before: ThreadTimes, after: ThreadTimes, items: number, seconds: number, postgres: boolean): string {
  const us = (ns: number) => `${(ns / 1000 / items).toFixed(1)} µs`;
  const waited = Math.round(((after.mainWaitingNs - before.mainWaitingNs) / (seconds * 1e9)) * 100);
  return (
    `  CPU per item: service's main thread ${us(after.mainOnCpuNs - before.mainOnCpuNs)} (ready but waiting for a core ${waited}% of the phase), ` +
    `whole process ${us(after.processOnCpuNs - before.processOnCpuNs)}` +
    (postgres ? `, PostgreSQL ${us(after.postgresOnCpuNs - before.postgresOnCpuNs)}` : '')
  );
}
