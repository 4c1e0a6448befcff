import { describe, expect, it } from 'vitest';
import {
  createMemoryRecorder,
  createSafetySession,
  parseRecording,
  replayRecording,
  SafetyInputError,
  type RecordingEntry,
} from 'assistant-safety';
import { manualClock } from './clock.js';

/*
 * A call the tool loop refuses itself (a question before looking, a loop of
 * identical calls) never reaches the machine; the session still records it so
 * recordings and live viewers show every refused call.
 */

function session() {
  const clock = manualClock(1_000);
  const recorder = createMemoryRecorder();
  const s = createSafetySession({ now: clock.now, recorder, id: 's' });
  return { s, recorder, clock };
}

describe('a call the tool loop refused', () => {
  it('should be recorded as blocked with the loop code, and change nothing', () => {
    const { s, recorder } = session();
    s.beginToolCall({ id: 'r1', kind: 'resolve', tool: 'find_vm' });
    s.endToolCall({ id: 'r1', ok: true });
    const before = s.persist();
    s.recordLoopBlock({ id: 'q1', kind: 'user_input', tool: 'ask', code: 'LOOK_BEFORE_ASKING' });
    expect(s.persist()).toEqual(before);
    expect(recorder.entries.at(-1)).toMatchObject({
      seq: 3,
      call: { type: 'recordLoopBlock', id: 'q1', kind: 'user_input', tool: 'ask', code: 'LOOK_BEFORE_ASKING' },
      decision: 'blocked',
      reasonCode: 'LOOK_BEFORE_ASKING',
      before: 'READING',
      after: 'READING',
    });
  });

  it("should not count toward the machine's consecutive blocks", () => {
    const { s } = session();
    expect(s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart' })?.consecutiveBlocks).toBe(1);
    s.recordLoopBlock({ id: 'w2', kind: 'write', tool: 'restart', code: 'LOOP_DETECTED' });
    expect(s.beginToolCall({ id: 'w3', kind: 'write', tool: 'restart' })?.consecutiveBlocks).toBe(2);
  });

  it('should notify subscribers, as any call does', () => {
    const { s } = session();
    let seen = 0;
    s.subscribe(() => seen++);
    s.recordLoopBlock({ id: 'q1', kind: 'user_input', tool: 'ask', code: 'LOOK_BEFORE_ASKING' });
    expect(seen).toBe(1);
  });

  it('should refuse a malformed block by naming the field, and record nothing', () => {
    const { s, recorder } = session();
    const count = recorder.entries.length;
    const bad: Array<[unknown, string]> = [
      [null, 'recordLoopBlock: block'],
      [{ id: '', kind: 'read', tool: 't', code: 'LOOP_DETECTED' }, 'recordLoopBlock: block.id'],
      [{ id: 'a', kind: 'delete', tool: 't', code: 'LOOP_DETECTED' }, 'recordLoopBlock: block.kind'],
      [{ id: 'a', kind: 'read', tool: '', code: 'LOOP_DETECTED' }, 'recordLoopBlock: block.tool'],
      [{ id: 'a', kind: 'read', tool: 't', code: 'FSM_BLOCKED' }, 'recordLoopBlock: block.code'],
    ];
    for (const [block, path] of bad) {
      const error = (() => {
        try {
          s.recordLoopBlock(block as never);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(SafetyInputError);
      expect((error as SafetyInputError).path).toBe(path);
    }
    expect(recorder.entries.length).toBe(count);
  });

  it('should replay with no divergence, and a recording that changed its code should diverge', () => {
    const { s, recorder } = session();
    s.recordLoopBlock({ id: 'q1', kind: 'user_input', tool: 'ask', code: 'LOOK_BEFORE_ASKING' });
    s.beginToolCall({ id: 'r1', kind: 'read', tool: 'status' });
    const text = recorder.entries.map((e) => JSON.stringify(e)).join('\n');
    expect(replayRecording(parseRecording(text)).divergences).toEqual([]);

    const edited: RecordingEntry[] = parseRecording(text).map((e) =>
      e.call.type === 'recordLoopBlock' ? { ...e, reasonCode: 'LOOP_DETECTED' } : e,
    );
    expect(replayRecording(edited).divergences).toMatchObject([
      { field: 'reasonCode', recorded: 'LOOP_DETECTED', actual: 'LOOK_BEFORE_ASKING' },
    ]);
  });
});
