import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryRecorder, createSafetySession, parseRecording } from 'assistant-safety';
import { createFileRecorder } from 'assistant-safety/node';

const dir = mkdtempSync(join(tmpdir(), 'file-recorder-'));

/** The JSON Lines of a short session. */
function sessionLines(id: string): string {
  const memory = createMemoryRecorder();
  const session = createSafetySession({ id, recorder: memory, now: () => 1 });
  session.beginToolCall({ id: 'r1', kind: 'read', tool: 'get_status' });
  session.endToolCall({ id: 'r1', ok: true });
  return memory.toJSONL();
}

describe('the file recorder reopening a recording', () => {
  it('should cut a torn tail on open, so the restarted session appends lines that replay', () => {
    const path = join(dir, 'torn.jsonl');
    const first = sessionLines('first');
    writeFileSync(path, first + first.split('\n')[0]!.slice(0, 40)); // a crash mid-line
    const reopened = createFileRecorder(path);
    expect(reopened.repairedTail).toBe('cut');
    const session = createSafetySession({ id: 'second', recorder: reopened });
    session.canFinalAnswer();
    reopened.close();
    const entries = parseRecording(readFileSync(path, 'utf8'));
    expect(entries.map((e) => e.session)).toEqual(['first', 'first', 'first', 'second', 'second']);
  });

  it('should end a last line that is whole but lacks its newline, keeping it', () => {
    const path = join(dir, 'unterminated.jsonl');
    writeFileSync(path, sessionLines('first').replace(/\n$/, ''));
    const reopened = createFileRecorder(path);
    expect(reopened.repairedTail).toBe('ended');
    createSafetySession({ id: 'second', recorder: reopened });
    reopened.close();
    expect(parseRecording(readFileSync(path, 'utf8')).map((e) => e.session)).toEqual([
      'first',
      'first',
      'first',
      'second',
    ]);
  });

  it('should leave a whole file, an empty file and a new file as they are', () => {
    const whole = join(dir, 'whole.jsonl');
    writeFileSync(whole, sessionLines('a'));
    const before = readFileSync(whole, 'utf8');
    const r = createFileRecorder(whole);
    expect(r.repairedTail).toBeUndefined();
    r.close();
    expect(readFileSync(whole, 'utf8')).toBe(before);
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    createFileRecorder(empty).close();
    expect(readFileSync(empty, 'utf8')).toBe('');
    const fresh = join(dir, 'sub', 'fresh.jsonl');
    const f = createFileRecorder(fresh);
    expect(f.repairedTail).toBeUndefined();
    f.close();
    expect(readFileSync(fresh, 'utf8')).toBe('');
  });

  it('should cut a torn tail longer than one read of the file end', () => {
    const path = join(dir, 'long-torn.jsonl');
    writeFileSync(path, sessionLines('first'));
    appendFileSync(path, '{"v":1,"session":"' + 'x'.repeat(200_000));
    const r = createFileRecorder(path);
    expect(r.repairedTail).toBe('cut');
    r.close();
    expect(readFileSync(path, 'utf8')).toBe(sessionLines('first'));
  });
});
