import type { Allowance, Enforcement, Fetched } from './allowance.js';
import type { GuardState } from './disk.js';
import * as m from './messages.js';

/** What the hook learned: the allowance, or why there is none (with the last policy it knew, for `unreachable`). */
export type Answer = Fetched | { kind: 'not-configured' };

export interface Decision {
  /** Block the prompt or tool call with this line. */
  block?: string;
  /** Show this line to the person, and go on. */
  say?: string;
  /** The state to keep (written only when it differs from what was read). */
  state: GuardState;
}

/**
 * The rules of contract §16 for one hook run, without any I/O: block when the allowance is spent
 * and the mode is `block`; warn once per threshold per period (and once for a spent allowance in
 * `warn` mode); when the service cannot be reached follow the last known `unreachable` policy,
 * saying so once while it stays unreachable (open) or at every run (closed, since it blocks).
 */
export function decide(answer: Answer, state: GuardState, url: string, lastPolicy: Enforcement | undefined): Decision {
  if (answer.kind === 'ok') {
    // An answer: what was said about no answer may be said again. Left out rather than false, so
    // that an unchanged state is not written again (a write and a rename at every prompt).
    const { unreachableSaid: _unreachable, refusedSaid: _refused, ...rest } = state;
    return decideAllowance(answer.allowance, rest);
  }
  // Closed holds in block mode only (the policy's schema): a warn-only organization never blocks.
  const closed = lastPolicy?.mode === 'block' && lastPolicy.unreachable === 'closed';
  if (answer.kind === 'unreachable') {
    if (lastPolicy?.mode === 'off') return { state };
    if (closed) return { block: m.unreachableClosed(url, answer.reason), state };
    if (state.unreachableSaid) return { state };
    return { say: m.unreachableOpen(url, answer.reason), state: { ...state, unreachableSaid: true } };
  }
  // A refused key checks no limit either: under a closed policy it must not be a way around one.
  if (closed && answer.kind === 'refused' && (answer.status === 401 || answer.status === 403)) return { block: m.refusedClosed(answer.status), state };
  if (state.refusedSaid) return { state };
  const say = answer.kind === 'refused' ? m.refusedMessage(answer.status, answer.detail) : m.NOT_CONFIGURED;
  return { say, state: { ...state, refusedSaid: true } };
}

function decideAllowance(a: Allowance, state: GuardState): Decision {
  const { mode, thresholds } = a.enforcement;
  if (mode === 'off' || a.limit === null) return { state };
  const spent = a.used >= a.limit || a.remaining === 0;
  if (spent && mode === 'block') return { block: m.blockedMessage(a), state };
  const warned = state.period === a.periodStart ? state.warned : [];
  const percent = a.limit > 0 ? (a.used / a.limit) * 100 : 100;
  // A spent allowance in warn mode is one more threshold, at 100 %.
  const reached = [...thresholds.filter((t) => percent >= t), ...(spent ? [100] : [])];
  const fresh = reached.filter((t) => !warned.includes(t));
  const next: GuardState = { ...state, period: a.periodStart, warned: [...new Set([...warned, ...reached])].sort((x, y) => x - y) };
  if (fresh.length === 0) return { state: next };
  // Several thresholds passed since the last run: one line, about the highest.
  const say = spent ? m.spentWarning(a) : m.thresholdWarning(a, Math.max(...fresh));
  return { say, state: next };
}
