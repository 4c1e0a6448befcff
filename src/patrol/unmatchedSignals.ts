import type { Signal } from './Signal.js';

/** What matching reads of a finding: the resource it is about and its category. */
export interface MatchableFinding {
  resourceId: string;
  category: string;
}

/**
 * The signals no finding accounts for. A signal is matched when some finding
 * has exactly its resource id and category (`resourceId + ":" + category`,
 * case-sensitive, no name fallback, no severity check). Order is kept and
 * nothing is deduplicated.
 *
 * Pass the findings reported or re-confirmed in *this* run, not the whole
 * store: a signal is only accounted for if the model looked at it now.
 *
 * The rule is exact on purpose, and it has a known blind spot you should know
 * about: a signal keyed one way never matches a finding keyed another. A SMART
 * signal on bare node `pve1` is not matched by a finding on `node/pve1`, and a
 * `guest_unreachable` signal (category `connectivity`, which no finding may
 * have) is never matched at all, so it always goes to the evaluation pass.
 *
 * @example
 * unmatchedSignals([cpuOnNode1, smartOnPve1], [{ resourceId: 'pve1', category: 'reliability' }]); // [cpuOnNode1]
 */
export function unmatchedSignals(signals: readonly Signal[], findings: readonly MatchableFinding[]): Signal[] {
  const matched = new Set(findings.map((f) => `${f.resourceId}:${f.category}`));
  return signals.filter((s) => !matched.has(`${s.resourceId}:${s.category}`));
}
