import { createSafetyMachine } from 'assistant-safety';
import type { MachineDefinition } from 'assistant-safety';
import type { RecordingEntry } from 'assistant-safety';
import { replayRecording } from 'assistant-safety';

/** One recorded decision an edited machine would make differently. */
export interface DecisionChange {
  session: string;
  seq: number;
  /** The call, in words: `beginToolCall write pulse_control`. */
  call: string;
  /** What was recorded: `blocked (NO_VALIDATED_TARGET)`. */
  recorded: string;
  /** What the edited machine decides. */
  now: string;
}

const callText = (e: RecordingEntry) => {
  const c = e.call as { type: string; kind?: string; tool?: string };
  return [c.type, c.kind, c.tool].filter(Boolean).join(' ');
};
const decisionText = (decision: unknown, reasonCode: unknown) =>
  reasonCode ? `${String(decision)} (${String(reasonCode)})` : String(decision);

/**
 * Replays a recording against an edited machine and lists the recorded
 * decisions it would change (a different decision or reason code), in order.
 *
 * @example
 * decisionChanges(parseRecording(text), editedDefinition); // [{ seq: 1, recorded: 'blocked (NO_VALIDATED_TARGET)', now: 'allowed', ... }]
 */
export function decisionChanges(entries: RecordingEntry[], definition: MachineDefinition): DecisionChange[] {
  const { divergences } = replayRecording(entries, { machine: createSafetyMachine(definition) });
  const changed = new Map<number, DecisionChange>();
  for (const d of divergences) {
    if (d.field !== 'decision' && d.field !== 'reasonCode' && d.field !== 'error') continue;
    const entry = entries[d.index];
    if (!entry || changed.has(d.index)) continue;
    const now =
      d.field === 'error'
        ? `error: ${String(d.actual)}`
        : d.field === 'decision'
          ? decisionText(d.actual, divergences.find((x) => x.index === d.index && x.field === 'reasonCode')?.actual)
          : decisionText(entry.decision, d.actual);
    changed.set(d.index, {
      session: entry.session,
      seq: entry.seq,
      call: callText(entry),
      recorded: decisionText(entry.decision, entry.reasonCode),
      now,
    });
  }
  return [...changed.values()];
}
