import { describe, expect, it } from 'vitest';
import {
  createKindSession,
  createMachineOfKind,
  defineMachineKind,
  replayKindRecording,
  type KindRecordingEntry,
} from 'assistant-safety';
import { Counter, TallyEvent } from './counterMachine.js';

/*
 * A kind's recording replays on the replayer the safety recording uses: interleaved sessions, some
 * parked as snapshots while others run, each decided again and compared entry by entry.
 */

const kindAdding = (step: number) =>
  defineMachineKind<Counter, TallyEvent>({
    name: 'tally',
    context: Counter,
    events: TallyEvent,
    guards: { belowThree: (c) => c.n < 3 },
    actions: { add: { run: (c) => ({ n: c.n + step }) } },
    initialContext: () => ({ n: 0 }),
    recorded: (c) => ({ n: c.n }),
    snapshot: { version: 1, migrations: {} },
  });

const json = {
  id: 'tally',
  description: 'Counts to three.',
  initial: 'COUNTING',
  guards: { belowThree: { description: 'Fewer than three.' } },
  actions: { add: { description: 'Add one.' } },
  states: {
    COUNTING: {
      description: 'Counting.',
      on: {
        ADD: [
          { guard: 'belowThree', actions: ['add'], description: 'Add.' },
          { target: 'FULL', description: 'Full.' },
        ],
      },
    },
    FULL: { description: 'Three or more.' },
  },
};

/** Three sessions, their events interleaved, as one recording. */
function interleaved(): KindRecordingEntry[] {
  const kind = kindAdding(1);
  const machine = createMachineOfKind(kind, json);
  const entries: KindRecordingEntry[] = [];
  const recorder = { record: (e: KindRecordingEntry) => void entries.push(e) };
  let t = 1_700_000_000_000;
  const sessions = ['a', 'b', 'c'].map((id) =>
    createKindSession<Counter, TallyEvent>(kind, machine, undefined, { id, recorder, now: () => t++ }),
  );
  for (let round = 0; round < 4; round++) for (const s of sessions) s.send({ type: 'ADD' });
  return entries;
}

describe('replaying a kind recording', () => {
  it('should replay interleaved sessions with one running at a time and find no divergence', () => {
    const entries = interleaved();
    const kind = kindAdding(1);
    const replay = replayKindRecording(kind, createMachineOfKind(kind, json), entries, { maxLiveSessions: 1 });
    expect(replay.count).toBe(15);
    expect(replay.divergences).toEqual([]);
    expect(replay.sessions).toEqual({ a: 'FULL', b: 'FULL', c: 'FULL' });
  });

  it('should name the entries where a changed action counts otherwise, each session restored from where it was parked', () => {
    const kind = kindAdding(2);
    const replay = replayKindRecording(kind, createMachineOfKind(kind, json), interleaved(), { maxLiveSessions: 1 });
    const first = replay.divergences.filter((d) => d.session === 'a');
    expect(first[0]).toMatchObject({ field: 'context', seq: 1, recorded: { n: 1 }, actual: { n: 2 } });
    // Two steps reach three: the session is full one event early, in every session alike.
    expect(first.map((d) => d.field)).toContain('after');
    expect(new Set(replay.divergences.map((d) => d.session))).toEqual(new Set(['a', 'b', 'c']));
  });
});
