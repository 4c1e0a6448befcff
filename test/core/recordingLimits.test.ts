import { describe, expect, it } from 'vitest';
import {
  createMemoryRecorder,
  createRecordingReplayer,
  createSafetySession,
  parseRecording,
  RecordingParseError,
  replayRecording,
  replayRecordingStream,
  type RecordingEntry,
} from 'assistant-safety';
import { loadRecordingText } from '../../viz/model/loadRecording.js';

/** A few sessions, interleaved: create, a read, a write, a blocked write, a verifying read. */
function interleaved(sessions: number): RecordingEntry[] {
  const recorder = createMemoryRecorder();
  let t = 0;
  const all = [...Array(sessions).keys()].map((i) => createSafetySession({ id: `s${i}`, recorder, now: () => ++t }));
  for (const s of all) s.beginToolCall({ id: 'r', kind: 'read', tool: 'get_status' });
  for (const s of all) s.endToolCall({ id: 'r', ok: true });
  for (const s of all) s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart' });
  for (const s of all) s.canExecuteTool('write', 'restart');
  for (const s of all) s.endToolCall({ id: 'w', ok: true });
  for (const s of all) s.canExecuteTool('write', 'restart');
  for (const s of all) s.onToolSuccess('read', 'get_status');
  return recorder.entries;
}
const jsonl = (entries: RecordingEntry[]) => entries.map((e) => JSON.stringify(e) + '\n').join('');

describe('recordings from other tools and hostile files', () => {
  it('should read a recording that starts with a UTF-8 byte-order mark, as text, bytes and in the app', async () => {
    const entries = interleaved(2);
    const text = '\uFEFF' + jsonl(entries);
    expect(parseRecording(text)).toEqual(entries);
    const bytes = new TextEncoder().encode(text);
    const streamed = await replayRecordingStream([bytes.subarray(0, 2), bytes.subarray(2)]);
    expect(streamed.count).toBe(entries.length);
    expect(streamed.divergenceCount).toBe(0);
    const loaded = await loadRecordingText('bom.jsonl', text);
    expect(loaded.ok && loaded.entries.length).toBe(entries.length);
  });

  it('should refuse a line longer than the limit with an error naming it, before holding it whole', async () => {
    const entries = interleaved(1);
    const long = '['.repeat(2_000_000);
    const text = jsonl(entries.slice(0, 2)) + long + '\n' + jsonl(entries.slice(2));
    let error: unknown;
    try {
      parseRecording(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RecordingParseError);
    expect((error as RecordingParseError).line).toBe(3);
    expect((error as RecordingParseError).message).toMatch(/^line 3: longer than 1048576 characters/);
    expect((error as RecordingParseError).entries).toHaveLength(2);
    // Streamed in small chunks, the line is refused as soon as the limit is passed.
    let seen = 0;
    async function* chunks() {
      for (let i = 0; i < text.length; i += 4096) {
        seen += 4096;
        yield text.slice(i, i + 4096);
      }
    }
    await expect(replayRecordingStream(chunks())).rejects.toThrow(/^line 3: longer than/);
    expect(seen).toBeLessThan(1_200_000);
    expect(() => parseRecording(jsonl(entries), { maxLineLength: 100 })).toThrow(/^line 1: longer than 100/);
    const loaded = await loadRecordingText('hostile.jsonl', text);
    expect(loaded).toMatchObject({ ok: false, line: 3 });
  });

  it('should replay a file of many sessions the same with few kept running (the rest parked)', () => {
    const entries = interleaved(30);
    const everyone = replayRecording(entries);
    expect(everyone.divergences).toEqual([]);
    const replayer = createRecordingReplayer({ maxLiveSessions: 3 });
    let most = 0;
    for (const e of entries) {
      replayer.push(e);
      most = Math.max(most, replayer.running);
    }
    expect(most).toBe(3);
    const few = replayer.result();
    expect(few.divergences).toEqual([]);
    expect(few.sessions).toEqual(everyone.sessions);
    expect(Object.keys(few.sessions)).toHaveLength(30);
    expect(few.final).toBe(everyone.final);
  });
});
