import { createMemoryRecorder, createSafetySession, type RecordingEntry } from '../../src/index.js';

/*
 * Recordings for the visualiser's tests, made by driving a real session
 * (with a fake clock) rather than written by hand, so they always match the
 * machine.
 */

export const START = Date.UTC(2026, 0, 12, 9, 30, 0);

/** A session that is blocked twice on its way (a second write, a final answer) and ends in READING. */
export function blockedRecording(id = 'fixture-blocked'): RecordingEntry[] {
  let t = START;
  const recorder = createMemoryRecorder();
  const s = createSafetySession({ id, now: () => (t += 1000), recorder });
  s.beginToolCall({ id: 'c1', kind: 'resolve', tool: 'find_vm' });
  s.endToolCall({ id: 'c1', ok: true });
  s.beginToolCall({ id: 'c2', kind: 'write', tool: 'restart_vm' });
  s.endToolCall({ id: 'c2', ok: true });
  s.beginToolCall({ id: 'c3', kind: 'write', tool: 'restart_vm' }); // blocked: UNVERIFIED_WRITE (index 5)
  s.canFinalAnswer(); // blocked: FINAL_ANSWER_UNVERIFIED (index 6)
  s.beginToolCall({ id: 'c4', kind: 'read', tool: 'vm_status' });
  s.endToolCall({ id: 'c4', ok: true });
  s.completeVerification();
  s.canFinalAnswer(); // allowed
  return recorder.entries;
}

/** Index of the first blocked entry of {@link blockedRecording}. */
export const FIRST_BLOCKED = 5;

/** A long recording: `n` entries of resolve, write, blocked write, read, verify cycles. */
export function bigRecording(n: number, id = 'fixture-big'): RecordingEntry[] {
  let t = START;
  const recorder = createMemoryRecorder();
  const s = createSafetySession({ id, now: () => (t += 10), recorder });
  for (let i = 0; recorder.entries.length < n; i++) {
    s.beginToolCall({ id: `r${i}`, kind: 'resolve', tool: 'find_vm' });
    s.endToolCall({ id: `r${i}`, ok: true });
    s.beginToolCall({ id: `w${i}`, kind: 'write', tool: 'restart_vm' });
    s.endToolCall({ id: `w${i}`, ok: true });
    s.beginToolCall({ id: `x${i}`, kind: 'write', tool: 'restart_vm' });
    s.beginToolCall({ id: `v${i}`, kind: 'read', tool: 'vm_status' });
    s.endToolCall({ id: `v${i}`, ok: true });
    s.completeVerification();
  }
  return recorder.entries.slice(0, n);
}

export const toJSONL = (entries: readonly RecordingEntry[]) => entries.map((e) => JSON.stringify(e) + '\n').join('');

/** The blocked recording with one decision altered, so a replay diverges at `index`. */
export function tamperedRecording(index = FIRST_BLOCKED): RecordingEntry[] {
  return blockedRecording('fixture-tampered').map((e, i) =>
    i === index ? { ...e, decision: 'allowed' as const, reasonCode: undefined } : e,
  );
}
