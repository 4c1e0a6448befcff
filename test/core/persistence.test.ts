import { describe, expect, it } from 'vitest';
import { createSafetySession, restoreSafetySession, SnapshotError } from 'assistant-safety';
import { manualClock } from './clock.js';

function inEveryState(clock = manualClock()) {
  const resolving = createSafetySession({ now: clock.now, id: 's-resolving' });
  resolving.beginToolCall({ id: 'x', kind: 'write', tool: 'restart_vm' }); // a tracked recovery
  const reading = createSafetySession({ now: clock.now });
  reading.beginToolCall({ id: 'r', kind: 'resolve', tool: 'find' });
  reading.endToolCall({ id: 'r', ok: true });
  const writing = createSafetySession({ now: clock.now, failedWriteRequiresVerification: true, recoveryTtlMs: 1000 });
  writing.targetEstablished();
  writing.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
  writing.beginToolCall({ id: 'r', kind: 'read', tool: 'status' });
  const verifying = createSafetySession({ now: clock.now });
  verifying.onToolSuccess('write', 'restart_vm');
  verifying.canExecuteTool('write', 'again');
  return { RESOLVING: resolving, READING: reading, WRITING: writing, VERIFYING: verifying };
}

describe('persist and restore', () => {
  it('should round-trip through JSON in every state and keep behaving the same', () => {
    const clock = manualClock();
    for (const [state, session] of Object.entries(inEveryState(clock))) {
      const json = JSON.stringify(session.persist());
      const restored = restoreSafetySession(JSON.parse(json), { now: clock.now });
      expect(restored.state).toBe(state);
      expect(restored.persist()).toEqual(session.persist());
      expect(restored.id).toBe(session.id);
      // The same next steps give the same results.
      for (const s of [session, restored]) {
        s.beginToolCall({ id: 'n1', kind: 'write', tool: 'stop_vm' });
        s.endToolCall({ id: 'w', ok: false });
        s.endToolCall({ id: 'r', ok: true });
      }
      expect(restored.persist()).toEqual(session.persist());
    }
  });

  it('should restore from the JSON text too', () => {
    const s = inEveryState().VERIFYING;
    expect(restoreSafetySession(JSON.stringify(s.persist())).state).toBe('VERIFYING');
  });

  it('should keep a read in flight across a restore from verifying a write that landed after it began', () => {
    const s = inEveryState().WRITING;
    const restored = restoreSafetySession(s.persist());
    restored.endToolCall({ id: 'w', ok: true });
    restored.endToolCall({ id: 'r', ok: true });
    expect(restored.readAfterWrite).toBe(false);
  });

  it('should keep snapshots small', () => {
    for (const s of Object.values(inEveryState())) expect(JSON.stringify(s.persist()).length).toBeLessThan(1024);
  });

  it('should let options override the snapshot settings', () => {
    const s = inEveryState().WRITING;
    const restored = restoreSafetySession(s.persist(), { failedWriteRequiresVerification: false, id: 'other' });
    restored.endToolCall({ id: 'w', ok: false });
    expect(restored.state).toBe('READING');
    expect(restored.id).toBe('other');
  });

  it('should not let a caller reach into the session through a persisted object', () => {
    const s = inEveryState().VERIFYING;
    const p = s.persist();
    p.context.wroteThisEpisode = false;
    expect(s.wroteThisEpisode).toBe(true);
  });
});

describe('restore of bad snapshots', () => {
  const good = () => inEveryState().WRITING.persist() as unknown as Record<string, any>;
  const fails = (value: unknown, message: RegExp) => {
    let error: unknown;
    try {
      restoreSafetySession(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as Error).message).toMatch(message);
  };

  it('should name the bad field', () => {
    const p = good();
    p.context.writeEpoch = 'one';
    fails(p, /context\.writeEpoch/);
    const q = good();
    q.state = 'FLYING';
    fails(q, /state/);
    const r = good();
    r.context.calls.w.kind = 'mutate';
    fails(r, /context\.calls\.w\.kind/);
    const t = good();
    delete t.context.readAfterWrite;
    fails(t, /context\.readAfterWrite/);
  });

  it('should say the version is unsupported', () => {
    const p = good();
    p.version = 99;
    fails(p, /unsupported snapshot version 99/);
  });

  it('should refuse a snapshot that is not one', () => {
    fails(null, /expected an object/);
    fails([], /an array/);
    fails('{not json', /not JSON/);
    fails({ hello: 1 }, /format/);
  });

  it('should refuse a snapshot whose state contradicts its calls', () => {
    const p = good();
    p.state = 'READING';
    fails(p, /a write in flight in state READING/);
    const q = good();
    delete q.context.calls.w;
    fails(q, /state WRITING with no write in flight/);
  });

  it('should not record anything for a refused restore', () => {
    const entries: unknown[] = [];
    const p = good();
    p.version = 9;
    expect(() => restoreSafetySession(p, { recorder: { record: (e) => entries.push(e) } })).toThrow();
    expect(entries).toEqual([]);
  });
});
