import { describe, expect, it } from 'vitest';
import {
  createKindSession,
  createSafetySession,
  SafetyInputError,
  KindSessionError,
  restoreKindSession,
  type KindRecordingEntry,
  type KindSession,
} from 'assistant-safety';
import { tallyKind, tallyMachine as machine, type Tally, type TallyEvent } from './counterMachine.js';

/*
 * What every session gets from the shell it extends, shown on a kind session: a recorder or a
 * listener that throws never changes what a call did, the clock never goes backwards, and an older
 * snapshot goes through the kind's migrations (the safety session's own tests show the same there).
 */

describe('the session shell, on a kind session', () => {
  it('should apply the event when the recorder throws, and hand the error and the entry to onRecorderError', () => {
    const reported: [unknown, KindRecordingEntry][] = [];
    const session = createKindSession<Tally, TallyEvent>(tallyKind, machine, undefined, {
      recorder: {
        record: (e) => {
          if (e.event) throw new Error('disk full');
        },
      },
      onRecorderError: (error, entry) => reported.push([error, entry]),
    });
    session.send({ type: 'ADD' });
    expect(session.context.n).toBe(1);
    expect(reported).toHaveLength(1);
    expect((reported[0]![0] as Error).message).toBe('disk full');
    expect(reported[0]![1]).toMatchObject({ seq: 1, event: { type: 'ADD' }, context: { n: 1 } });
  });

  it('should tell every listener after each event, report one that throws, and stop after its removal', () => {
    const errors: unknown[] = [];
    const session = createKindSession<Tally, TallyEvent>(tallyKind, machine, undefined, {
      onListenerError: (e) => errors.push(e),
    });
    const seen: number[] = [];
    session.subscribe(() => {
      throw new Error('listener broke');
    });
    const stop = session.subscribe((s: KindSession<Tally, TallyEvent>) => seen.push(s.context.n));
    session.send({ type: 'ADD' });
    stop();
    session.send({ type: 'ADD' });
    expect(seen).toEqual([1]);
    expect(errors.map((e) => (e as Error).message)).toEqual(['listener broke', 'listener broke']);
    expect(session.context.n).toBe(2);
    expect(() => session.subscribe('not a function' as never)).toThrow(KindSessionError);
  });

  it('should record times that never go backwards, ignoring a reading that is not a finite number', () => {
    const readings = [100, 90, Number.NaN, 130, 120];
    let i = 0;
    const at: number[] = [];
    const session = createKindSession<Tally, TallyEvent>(tallyKind, machine, undefined, {
      now: () => readings[Math.min(i++, readings.length - 1)]!,
      recorder: { record: (e) => at.push(e.at) },
    });
    for (let k = 0; k < 4; k++) session.send({ type: 'ADD' });
    expect(at).toEqual([100, 100, 100, 130, 130]);
    expect(() => createKindSession(tallyKind, machine, undefined, { now: () => Number.NaN })).toThrow(/options\.now/);
  });

  it('should refuse a clock that is not one with the same words in both kinds of session, each with its own error', () => {
    const bad: [unknown, RegExp][] = [
      [() => Number.NaN, /^options\.now: the clock must return finite epoch milliseconds/],
      ['Date.now', /^options\.now: expected a function, got string/],
    ];
    for (const [now, words] of bad) {
      expect(() => createKindSession(tallyKind, machine, undefined, { now: now as () => number })).toThrow(
        KindSessionError,
      );
      expect(() => createKindSession(tallyKind, machine, undefined, { now: now as () => number })).toThrow(words);
      expect(() => createSafetySession({ now: now as () => number })).toThrow(SafetyInputError);
      expect(() => createSafetySession({ now: now as () => number })).toThrow(words);
    }
  });

  it("should bring an older snapshot through the kind's migrations, and name a version it has none for", () => {
    const old = { format: 'assistant-safety/kind-session', kind: 'tally', version: 1, id: 't', state: 'COUNTING' };
    const restored = restoreKindSession<Tally, TallyEvent>(tallyKind, machine, { ...old, context: { count: 4 } });
    expect(restored.context).toEqual({ n: 4 });
    expect(() => restoreKindSession(tallyKind, machine, { ...old, version: 7, context: { n: 1 } })).toThrow(
      /unsupported snapshot version 7 of kind "tally": this build reads versions up to 2/,
    );
  });
});
