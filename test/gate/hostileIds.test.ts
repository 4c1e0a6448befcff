import {
  createMemoryRecorder,
  createSafetySession,
  createToolLoop,
  replayRecording,
  restoreSafetySession,
} from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { drive, createFakeTools } from '../loop/fakeTools.js';

const IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

/** Issue 16 item 5: a call id is just a name. */
describe('call ids that are object property names', () => {
  for (const id of IDS) {
    it(`should begin, persist, restore, end and replay a write with id ${JSON.stringify(id)}`, () => {
      const recorder = createMemoryRecorder();
      const s = createSafetySession({ recorder });
      s.targetEstablished();
      s.beginToolCall({ id: 'r', kind: 'read', tool: 'get_vm' });
      expect(s.beginToolCall({ id, kind: 'write', tool: 'restart_vm' })).toBeNull();
      s.endToolCall({ id: 'r', ok: true });
      expect(s.state).toBe('WRITING');
      expect(s.inFlightWrite?.id).toBe(id);
      const again = restoreSafetySession(JSON.stringify(s.persist()));
      expect(again.inFlightWrite?.id).toBe(id);
      s.endToolCall({ id, ok: true });
      expect(s.state).toBe('VERIFYING');
      expect(Object.keys(s.context.calls)).toEqual([]);
      expect(replayRecording(recorder.entries).divergences).toEqual([]);
    });
  }

  it('should run a loop batch whose write has the id __proto__', async () => {
    const tools = createFakeTools();
    const session = createSafetySession();
    session.targetEstablished();
    const loop = createToolLoop({
      session,
      execute: tools.execute,
      classify: (n) => (n === 'get' ? 'read' : 'write'),
    });
    const outcomes = await drive(
      tools,
      loop.runBatch([
        { id: 'b', name: 'get' },
        { id: '__proto__', name: 'restart' },
      ]),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);
    expect(session.state).toBe('VERIFYING');
    expect(session.context.calls).toEqual({});
  });

  it('should read a call id once: a getter that answers differently cannot make can() judge another id', () => {
    const s = createSafetySession();
    s.beginToolCall({ id: 'a', kind: 'read', tool: 'get_vm' });
    const answers = ['b', 'a'];
    const shifty = {
      get id() {
        return answers.shift() ?? 'a';
      },
      kind: 'read' as const,
      tool: 'get_vm',
    };
    // The copy says 'b', which is not in flight: the check answers for 'b' and does not throw for 'a'.
    expect(s.can(shifty)).toBeNull();
  });
});
