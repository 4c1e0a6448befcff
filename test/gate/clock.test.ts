import {
  createMemoryRecorder,
  createSafetySession,
  parseRecording,
  replayRecording,
  restoreSafetySession,
  SafetyInputError,
  SnapshotError,
} from 'assistant-safety';
import { describe, expect, it } from 'vitest';

const lines = (entries: unknown[]) => entries.map((e) => JSON.stringify(e)).join('\n') + '\n';

/** Issue 16 item 6: the clock is not trusted. */
describe('the session clock', () => {
  for (const [what, now] of [
    ['NaN', () => NaN],
    ['Infinity', () => Infinity],
    ['a string', () => '1700000000000'],
    ['a bigint', () => 1700000000000n],
    ['undefined', () => undefined],
  ] as const) {
    it(`should refuse a clock that reads ${what} when the session is created`, () => {
      const make = () => createSafetySession({ now: now as unknown as () => number });
      expect(make).toThrow(SafetyInputError);
      expect(make).toThrow(/options\.now/);
    });
  }

  it('should keep the last good reading when the clock later fails, so the recording still parses', () => {
    let reading: unknown = 1000;
    const recorder = createMemoryRecorder();
    const s = createSafetySession({ now: () => reading as number, recorder });
    s.trackPendingRecovery('E', 'restart_vm');
    reading = NaN;
    s.targetEstablished();
    expect(s.pendingRecoveries).toHaveLength(1); // not expired by a NaN reading
    reading = 'later';
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    expect(recorder.entries.map((e) => e.at)).toEqual([1000, 1000, 1000, 1000]);
    const parsed = parseRecording(lines(recorder.entries));
    expect(replayRecording(parsed).divergences).toEqual([]);
    expect(restoreSafetySession(JSON.stringify(s.persist())).state).toBe('WRITING');
  });

  it('should never let session time go backwards when the clock does', () => {
    let t = 10_000;
    const recorder = createMemoryRecorder();
    const s = createSafetySession({ now: () => t, recorder, recoveryTtlMs: 1000 });
    s.trackPendingRecovery('E', 'restart_vm');
    t = 5_000; // the clock jumps back
    s.targetEstablished();
    expect(s.pendingRecoveries).toHaveLength(1);
    t = 10_900; // 900 ms after the tracking on session time
    expect(s.pendingRecoveries).toHaveLength(1);
    t = 11_001;
    expect(s.pendingRecoveries).toHaveLength(0);
    const at = recorder.entries.map((e) => e.at);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(replayRecording(recorder.entries).divergences).toEqual([]);
  });

  it('should refuse a snapshot whose write epoch cannot advance', () => {
    const s = createSafetySession();
    const snapshot = s.persist();
    snapshot.context.writeEpoch = Number.MAX_SAFE_INTEGER;
    expect(() => restoreSafetySession(snapshot)).toThrow(SnapshotError);
    expect(() => restoreSafetySession(snapshot)).toThrow(/context\.writeEpoch/);
  });

  it('should answer a snapshot with throwing getters or a hostile Proxy with a SnapshotError', () => {
    const s = createSafetySession();
    const getter = Object.defineProperty({ ...s.persist() }, 'context', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    expect(() => restoreSafetySession(getter)).toThrow(SnapshotError);
    const proxy = new Proxy(s.persist(), {
      get() {
        throw new Error('trap');
      },
      ownKeys() {
        throw new Error('trap');
      },
    });
    expect(() => restoreSafetySession(proxy)).toThrow(SnapshotError);
  });
});
