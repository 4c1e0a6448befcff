import type { RecordingEntry } from '../safety/RecordingEntry.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import { createRecordingReplayer, type ReplayOptions, type ReplayResult } from './createRecordingReplayer.js';

/**
 * Runs recorded entries through the current machine (or `options.machine`),
 * one real session per recorded session, with the recorded clock, and lists
 * every divergence: where the recorded decision, reason, state, result or
 * context differs from what the machine does now. For a recording too long to
 * hold in memory, stream it with {@link replayRecordingStream}.
 *
 * @example
 * const { final, divergences } = replayRecording(parseRecording(text));
 * if (divergences.length) console.log('the machine changed behaviour', divergences[0]);
 */
export function replayRecording(entries: RecordingEntry[], options: ReplayOptions = {}): ReplayResult {
  refuseUnknownOptions('replayRecording', options, keysOf<ReplayOptions>({ machine: true }));
  const replayer = createRecordingReplayer({ ...options, keepDivergences: Infinity });
  for (const entry of entries) replayer.push(entry);
  return replayer.result();
}
