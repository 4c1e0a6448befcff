import { describe, expect, it } from 'vitest';
import {
  createMemoryRecorder,
  createSafetySession,
  parseRecording,
  replayRecording,
  SafetyInputError,
  type RecordingEntry,
} from 'assistant-safety';

/*
 * `orphanedBy` on an end (the holder whose claim on an orphaned call ran out): recorded as given,
 * no effect on the machine, round-tripped by parseRecording and replay; a malformed one is refused
 * naming the field.
 */

function recording(): RecordingEntry[] {
  let t = 1_700_000_000_000;
  const recorder = createMemoryRecorder();
  const s = createSafetySession({ id: 'o', now: () => (t += 1000), recorder });
  s.beginToolCall({ id: 'r', kind: 'resolve', tool: 'find_vm' });
  s.endToolCall({ id: 'r', ok: true });
  s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
  s.endToolCall({ id: 'w', ok: false, unknown: true, orphanedBy: 'host-a:4242:1f2e3d' });
  return recorder.entries;
}

const jsonl = (entries: readonly RecordingEntry[]) => entries.map((e) => JSON.stringify(e)).join('\n');

describe('an end recorded with orphanedBy', () => {
  it('should round-trip through parseRecording and replay, the machine moving as for any unknown outcome', () => {
    const entries = recording();
    const end = entries.at(-1)!;
    expect(end.call).toEqual({
      type: 'endToolCall',
      id: 'w',
      ok: false,
      unknown: true,
      orphanedBy: 'host-a:4242:1f2e3d',
    });
    expect(end.after).toBe('VERIFYING');
    const parsed = parseRecording(jsonl(entries));
    expect(parsed).toEqual(entries);
    const replay = replayRecording(parsed);
    expect(replay.divergences).toEqual([]);
    expect(replay.final).toBe('VERIFYING');
  });

  it('should refuse an empty orphanedBy in a recording, naming the field', () => {
    const text = jsonl(recording()).replace('"orphanedBy":"host-a:4242:1f2e3d"', '"orphanedBy":""');
    expect(() => parseRecording(text)).toThrow(/line 5: call\.orphanedBy: Too small/);
  });

  it('should refuse a malformed orphanedBy at the API, naming the argument', () => {
    const s = createSafetySession();
    s.beginToolCall({ id: 'r', kind: 'resolve', tool: 'find_vm' });
    s.endToolCall({ id: 'r', ok: true });
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    const attempt = (end: object) => () => s.endToolCall({ id: 'w', ok: false, ...end });
    expect(attempt({ unknown: true, orphanedBy: '' })).toThrow(SafetyInputError);
    expect(attempt({ unknown: true, orphanedBy: '' })).toThrow(/^endToolCall: result\.orphanedBy: Too small/);
    expect(attempt({ unknown: true, orphanedBy: 'x'.repeat(201) })).toThrow(/result\.orphanedBy: Too big/);
    // Only an unknown outcome can be an orphaned call's.
    expect(attempt({ orphanedBy: 'host-a' })).toThrow(
      /result\.orphanedBy: an orphaned call ends with an unknown outcome/,
    );
    expect(s.state).toBe('WRITING');
  });
});
