import { unwrap, type OrgctlClient } from '../../client/api-client.js';
import type { components } from '../../client/openapi-types.js';
import { millisOf, systemClock, type Clock } from '../../core/clock.js';

type Computer = components['schemas']['Computer'];
type Step = NonNullable<Computer['provisioningSteps']>[number];

export interface FollowOptions {
  api: OrgctlClient;
  computerId: string;
  /** Stop waiting after this long (the computer keeps going on the service). */
  timeoutMs?: number;
  /** Only these steps' logs and states are shown (install-deps follows its own step). */
  steps?: string[];
  /** Printed once while the first step waits for something outside the service (a host agent). */
  waitingHint?: string;
  /** Times the polls and the timeout (the system clock unless given). */
  clock?: Clock;
}

export type FollowResult = { settled: 'succeeded' | 'failed'; computer: Computer } | { settled: 'timeout'; computer: Computer };

const POLL_MS = 1000;
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A step's output so far: the install step's is its install session's log. */
async function stepLog(api: OrgctlClient, computerId: string, step: Step): Promise<string> {
  if (step.installSessionId) {
    const session = await unwrap(
      api.GET('/api/v0/computers/{computerId}/install-sessions/{sessionId}', { params: { path: { computerId, sessionId: step.installSessionId } } }),
    );
    return session.log;
  }
  return (await unwrap(api.GET('/api/v0/computers/{computerId}/provisioning-steps/{stepId}', { params: { path: { computerId, stepId: step.id } } }))).log;
}

/** What is new in a log tail since the last one seen (the service keeps only a tail, so the start may move). */
export function newLogText(previous: string, current: string): string {
  if (current.startsWith(previous)) return current.slice(previous.length);
  const anchor = previous.slice(-200);
  const at = anchor === '' ? -1 : current.lastIndexOf(anchor);
  return at >= 0 ? current.slice(at + anchor.length) : current;
}

/**
 * Follows a computer until no step is pending or running: each step's state changes as lines on
 * stderr, its output as it arrives on stdout. On a terminal a spinner line shows the running step;
 * piped, only plain lines are written. Polls once a second.
 */
export async function followComputer(o: FollowOptions): Promise<FollowResult> {
  const clock = o.clock ?? systemClock;
  const now = () => millisOf(clock);
  const started = now();
  const tty = process.stderr.isTTY === true;
  const seenStatus = new Map<string, string>();
  const seenLog = new Map<string, string>();
  let spin = 0;
  let hinted = false;
  let spinnerShown = false;
  const clearSpinner = () => {
    if (spinnerShown) process.stderr.write('\r\u001b[2K');
    spinnerShown = false;
  };
  const say = (line: string) => {
    clearSpinner();
    process.stderr.write(`${line}\n`);
  };
  const relevant = (s: Step) => !o.steps || o.steps.includes(s.id);

  for (;;) {
    const computer = await unwrap(o.api.GET('/api/v0/computers/{computerId}', { params: { path: { computerId: o.computerId } } }));
    const steps = (computer.provisioningSteps ?? []).filter(relevant);
    for (const step of steps) {
      // A step that ended since the last look is read once more, for the output it wrote last
      // (a fast step may go from pending to done between two looks).
      const ended = (step.status === 'succeeded' || step.status === 'failed') && seenStatus.get(step.id) !== step.status && seenStatus.has(step.id);
      if (step.status === 'running' || ended) {
        const log = await stepLog(o.api, o.computerId, step);
        const fresh = newLogText(seenLog.get(step.id) ?? '', log);
        seenLog.set(step.id, log);
        if (fresh !== '') {
          clearSpinner();
          process.stdout.write(fresh.endsWith('\n') ? fresh : `${fresh}\n`);
        }
      }
      if (seenStatus.get(step.id) !== step.status) {
        seenStatus.set(step.id, step.status);
        say(`${step.name} (${step.id}): ${step.status}${step.error ? ` - ${step.error}` : ''}`);
      }
    }
    const open = steps.filter((s) => s.status === 'pending' || s.status === 'running');
    if (open.length === 0) {
      clearSpinner();
      const failed = steps.some((s) => s.status === 'failed') || computer.status === 'error';
      return { settled: failed ? 'failed' : 'succeeded', computer };
    }
    if (o.waitingHint && !hinted && open[0]?.status === 'pending' && open[0].id === 'connect-host') {
      hinted = true;
      say(o.waitingHint);
    }
    if (o.timeoutMs !== undefined && now() - started >= o.timeoutMs) {
      clearSpinner();
      return { settled: 'timeout', computer };
    }
    if (tty) {
      const current = open[0] as Step;
      const seconds = Math.floor((now() - started) / 1000);
      process.stderr.write(`\r\u001b[2K${SPINNER[spin++ % SPINNER.length]} ${current.name}: ${current.status} (${seconds} s)`);
      spinnerShown = true;
    }
    await clock.sleep(POLL_MS);
  }
}
