import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileRecorder } from 'assistant-safety/node';
import {
  createMemoryRecorder,
  createSafetyMachine,
  createSafetySession,
  parseRecording,
  RecordingEntry,
  RecordingParseError,
  replayRecording,
  restoreSafetySession,
} from 'assistant-safety';
import { manualClock } from './clock.js';
import { driveEverything } from './fixtures.js';

function recorded() {
  const clock = manualClock(1_700_000_000_000);
  const recorder = createMemoryRecorder();
  const s = createSafetySession({ now: clock.now, recorder, id: 'sess-1' });
  driveEverything(s, clock);
  return { recorder, s, clock };
}

describe('recorder entries', () => {
  it('should offer one valid entry per call, starting with the session creation', () => {
    const { recorder } = recorded();
    const { entries } = recorder;
    expect(entries[0]).toMatchObject({ call: { type: 'create' }, decision: 'applied', seq: 0, session: 'sess-1' });
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i));
    for (const e of entries) expect(RecordingEntry.safeParse(e).success).toBe(true);
    expect(entries.map((e) => e.call.type)).toContain('checkRecoverySuccess');
  });

  it('should record decisions with reason codes, states before and after, and a context summary', () => {
    const { entries } = recorded().recorder;
    const blocked = entries.find((e) => e.call.type === 'beginToolCall' && e.call.id === 'w2')!;
    expect(blocked).toMatchObject({
      decision: 'blocked',
      reasonCode: 'WRITE_IN_FLIGHT',
      before: 'WRITING',
      after: 'WRITING',
    });
    const began = entries.find((e) => e.call.type === 'beginToolCall' && e.call.id === 'w1')!;
    expect(began).toMatchObject({ decision: 'allowed', before: 'READING', after: 'WRITING' });
    expect(began.context.inFlightWrite).toMatchObject({ id: 'w1', tool: 'restart_vm' });
    const ended = entries.find((e) => e.call.type === 'endToolCall' && e.call.id === 'w2')!;
    expect(ended).toMatchObject({ decision: 'ignored', note: 'unknown_call' });
    const tracked = entries.find((e) => e.call.type === 'trackPendingRecovery')!;
    const taken = entries.find((e) => e.call.type === 'checkRecoverySuccess')!;
    expect(taken.result).toBe(tracked.result);
  });

  it('should record a restore with its snapshot so a replay can continue from it', () => {
    const clock = manualClock(5);
    const first = createMemoryRecorder();
    const s = createSafetySession({ now: clock.now, recorder: first, id: 'x' });
    s.onToolSuccess('write', 'w');
    const second = createMemoryRecorder();
    const restored = restoreSafetySession(s.persist(), { now: clock.now, recorder: second });
    restored.onToolSuccess('read', 'r');
    expect(second.entries[0]).toMatchObject({ call: { type: 'restore' }, after: 'VERIFYING' });
    expect(replayRecording(second.entries).divergences).toEqual([]);
    expect(replayRecording([...first.entries, ...second.entries]).final).toBe('VERIFYING');
  });

  it('should keep the decision when the recorder throws, and report the failure', () => {
    const failures: unknown[] = [];
    const s = createSafetySession({
      recorder: {
        record: () => {
          throw new Error('disk full');
        },
      },
      onRecorderError: (e) => failures.push(e),
    });
    s.targetEstablished();
    expect(s.beginToolCall({ id: 'w', kind: 'write', tool: 'x' })).toBeNull();
    expect(s.state).toBe('WRITING');
    expect(failures).toHaveLength(3);
  });
});

describe('replayRecording', () => {
  it('should replay a recording of the current machine with no divergence', () => {
    const { recorder, s } = recorded();
    const result = replayRecording(recorder.entries);
    expect(result.divergences).toEqual([]);
    expect(result.final).toBe(s.state);
    expect(result.sessions).toEqual({ 'sess-1': s.state });
  });

  it('should list where a changed machine decides differently', () => {
    const { recorder } = recorded();
    const def = JSON.parse(readFileSync(new URL('../../machines/assistant-safety.json', import.meta.url), 'utf8'));
    def.states.WRITING.on.BEGIN_CALL = []; // a second write while one is in flight now goes through
    const result = replayRecording(recorder.entries, { machine: createSafetyMachine(def) });
    const index = recorder.entries.findIndex((e) => e.call.type === 'beginToolCall' && e.call.id === 'w2');
    expect(result.divergences[0]).toMatchObject({
      index,
      session: 'sess-1',
      field: 'decision',
      recorded: 'blocked',
      actual: 'allowed',
    });
  });

  it('should flag a tampered decision', () => {
    const { recorder } = recorded();
    const entries = recorder.entries.map((e) => ({ ...e }));
    const i = entries.findIndex((e) => e.decision === 'blocked');
    entries[i] = { ...entries[i]!, decision: 'allowed' };
    delete entries[i]!.reasonCode;
    const fields = replayRecording(entries)
      .divergences.filter((d) => d.index === i)
      .map((d) => d.field);
    expect(fields).toEqual(['decision', 'reasonCode']);
  });

  it('should replay interleaved sessions independently', () => {
    const clock = manualClock();
    const rec = createMemoryRecorder();
    const a = createSafetySession({ now: clock.now, recorder: rec, id: 'a' });
    const b = createSafetySession({ now: clock.now, recorder: rec, id: 'b' });
    a.onToolSuccess('read', 'x');
    b.onToolSuccess('write', 'y');
    a.beginToolCall({ id: 'w', kind: 'write', tool: 'z' });
    const result = replayRecording(rec.entries);
    expect(result.divergences).toEqual([]);
    expect(result.sessions).toEqual({ a: 'WRITING', b: 'VERIFYING' });
  });
});

describe('parseRecording', () => {
  const text = () => recorded().recorder.toJSONL();

  it('should parse what a recorder wrote', () => {
    const { recorder } = recorded();
    expect(parseRecording(recorder.toJSONL())).toEqual(recorder.entries);
  });

  it('should skip blank lines and accept CRLF', () => {
    const t = text().replace(/\n/g, '\r\n\n');
    expect(parseRecording(t)).toHaveLength(recorded().recorder.entries.length);
  });

  it('should name the line of invalid JSON and of an invalid entry, keeping the lines before it', () => {
    const lines = text().split('\n');
    const broken = [...lines.slice(0, 3), '{"v":1,', ...lines.slice(3)].join('\n');
    let error: RecordingParseError | undefined;
    try {
      parseRecording(broken);
    } catch (e) {
      error = e as RecordingParseError;
    }
    expect(error).toBeInstanceOf(RecordingParseError);
    expect(error!.message).toMatch(/^line 4: not JSON/);
    expect(error!.torn).toBe(false);
    expect(error!.entries).toHaveLength(3);

    const entry = JSON.parse(lines[2]!);
    entry.call.kind = 'mutate';
    const invalid = [lines[0], lines[1], JSON.stringify(entry)].join('\n');
    expect(() => parseRecording(invalid)).toThrow(/^line 3: call(\.kind)?: /);
  });

  it('should report a torn last line and still return the complete lines when asked', () => {
    const t = text();
    const torn = t.slice(0, t.length - 40); // cut inside the last line, no trailing newline
    const complete = t.split('\n').filter(Boolean).length - 1;
    expect(() => parseRecording(torn)).toThrow(/incomplete last line \(torn write/);
    try {
      parseRecording(torn);
    } catch (e) {
      expect((e as RecordingParseError).torn).toBe(true);
      expect((e as RecordingParseError).entries).toHaveLength(complete);
    }
    let tornLine = 0;
    expect(parseRecording(torn, { allowTornTail: true, onTornTail: (l) => (tornLine = l) })).toHaveLength(complete);
    expect(tornLine).toBe(complete + 1);
  });

  it('should not take a bad line in the middle for a torn tail', () => {
    const lines = text().split('\n');
    const bad = [lines[0], '{"v":', lines[1]].join('\n');
    expect(() => parseRecording(bad, { allowTornTail: true })).toThrow(/^line 2:/);
  });
});

describe('createFileRecorder', () => {
  it('should append one complete line per entry, readable after every call', () => {
    const dir = mkdtempSync(join(tmpdir(), 'as-rec-'));
    const path = join(dir, 'nested', 'session.jsonl');
    const recorder = createFileRecorder(path);
    const clock = manualClock();
    const s = createSafetySession({ recorder, now: clock.now });
    s.onToolSuccess('read', 'x');
    // Complete on disk before the next call: the file parses with no torn tail right now.
    expect(parseRecording(readFileSync(path, 'utf8'))).toHaveLength(2);
    driveEverything(s, clock);
    recorder.close();
    const entries = parseRecording(readFileSync(path, 'utf8'));
    expect(replayRecording(entries).divergences).toEqual([]);
    expect(() => recorder.record(entries[0]!)).toThrow(/closed/);
  });

  it('should append to an existing file rather than truncate it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'as-rec-'));
    const path = join(dir, 's.jsonl');
    writeFileSync(path, '');
    for (const id of ['a', 'b']) {
      const recorder = createFileRecorder(path, { fsync: true });
      createSafetySession({ recorder, id }).canFinalAnswer();
      recorder.close();
    }
    expect(replayRecording(parseRecording(readFileSync(path, 'utf8'))).sessions).toEqual({
      a: 'RESOLVING',
      b: 'RESOLVING',
    });
  });
});
