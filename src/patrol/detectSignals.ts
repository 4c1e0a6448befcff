import { pulseDetectors } from './pulseDetectors.js';
import type { Detector, Signal, SignalThresholds, ToolCallRecord } from './Signal.js';

/**
 * Signals with one per `type:resourceId`, the first occurrence kept (a disk
 * seen in two calls is one signal).
 *
 * @example
 * dedupeSignals([cpuOnNode1, cpuOnNode1Again, diskOnNode1]); // [cpuOnNode1, diskOnNode1]
 */
export function dedupeSignals(signals: readonly Signal[]): Signal[] {
  const seen = new Set<string>();
  return signals.filter((s) => {
    const key = `${s.type}:${s.resourceId}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Runs the detectors over the tool calls of a model pass: only successful
 * calls with non-empty output are read, every detector sees every such call,
 * and the signals are deduplicated ({@link dedupeSignals}). The detectors are
 * the Pulse preset unless you pass your own (add yours to the preset with
 * `[...pulseDetectors, mine]`).
 *
 * @example
 * const signals = detectSignals(
 *   [{ id: 'c1', tool: 'pulse_storage', input: { type: 'pools' }, output: '{"pools":[{"id":"backup","usage_percent":97}]}', success: true }],
 *   DEFAULT_SIGNAL_THRESHOLDS,
 * );
 * signals[0].summary; // 'Storage pool backup at 97.0% usage'
 */
export function detectSignals(
  calls: readonly ToolCallRecord[],
  thresholds: SignalThresholds,
  now: number = Date.now(),
  detectors: readonly Detector[] = pulseDetectors,
): Signal[] {
  const found: Signal[] = [];
  for (const call of calls) {
    if (!call.success || call.output.trim() === '') continue;
    for (const detect of detectors) found.push(...detect(call, { thresholds, now }));
  }
  return dedupeSignals(found);
}
