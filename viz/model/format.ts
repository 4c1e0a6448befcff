import type { RecordingEntry } from 'assistant-safety';

/** `HH:MM:SS.mmm` (UTC) of an epoch-milliseconds time; the same on every machine. */
export function formatTime(at: number | null | undefined): string {
  if (at === null || at === undefined || !Number.isFinite(at)) return '—';
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? String(at) : d.toISOString().slice(11, 23);
}

// Made once, as the app loads: the first number formatted sets up the locale's data
// (12-20 ms in Chromium), which would otherwise land in the frame that shows an opened recording.
const COUNT = new Intl.NumberFormat('en');

/** `100,000`: a count, with the same separators on every machine. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** `1m 05s`, `42s`, `850ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

/**
 * What an end with an unknown outcome says of itself: `orphaned: <holder>'s lease ran out` when a
 * gateway ended a call another gateway (the holder) left in flight, `outcome unknown` otherwise.
 */
export function unknownOutcomeOf(entry: RecordingEntry): string | undefined {
  const call = entry.call;
  if (call.type !== 'endToolCall' || call.unknown !== true) return undefined;
  return call.orphanedBy !== undefined ? `orphaned: ${call.orphanedBy}'s lease ran out` : 'outcome unknown';
}

/** The tool a call is about, if any. */
export function toolOf(entry: RecordingEntry): string {
  const call = entry.call;
  if ('tool' in call) return call.tool;
  if (call.type === 'endToolCall') {
    const unknown = unknownOutcomeOf(entry);
    if (unknown) return `#${call.id} ${unknown}`;
    return `#${call.id}${call.ok ? '' : ' failed'}${call.verified ? ' verified' : ''}`;
  }
  // Human evidence names the person, so it never reads like a tool's.
  if (call.type === 'attest') return `by ${call.by}${call.note ? `: ${call.note}` : ''}`;
  return '';
}

/** The kind of a call (`beginToolCall write`), for the timeline. */
export function kindOf(entry: RecordingEntry): string {
  const call = entry.call;
  if (call.type === 'attest') return `attest ${call.evidence}`;
  return 'kind' in call ? `${call.type} ${call.kind}` : call.type;
}

/**
 * What the timeline's decision column says: the block's reason, a shadow run's would-be block,
 * a person's attestation, or the plain decision.
 */
export function decisionOf(entry: RecordingEntry): string {
  if (entry.wouldBlock !== undefined) return `would block: ${entry.wouldBlock}`;
  if (entry.call.type === 'attest') return entry.decision === 'applied' ? 'attested' : 'not attestable';
  return entry.reasonCode ?? entry.decision;
}
