import { createReadStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSafetySession, MAX_LINE_LENGTH, replayRecordingStream, restoreSafetySession } from 'assistant-safety';
import { createFileRecorder } from 'assistant-safety/node';

/*
 * Every line the file recorder writes is one replay accepts: a huge string
 * (a 1 MiB tool name) is written shortened, the same way each time, so the
 * recording replays exactly; an entry too big even then is refused, reported,
 * and counted, never written.
 */

const dir = mkdtempSync(join(tmpdir(), 'as-line-limit-'));
const longestLine = (path: string) =>
  Math.max(
    ...readFileSync(path, 'utf8')
      .split('\n')
      .map((l) => l.length),
  );

describe('the file recorder at the line limit', () => {
  it('should write a 1 MiB tool name so that the recording replays exactly', async () => {
    const path = join(dir, 'long-tool.jsonl');
    const recorder = createFileRecorder(path);
    const tool = 'x'.repeat(1 << 20);
    const s = createSafetySession({ id: 'long', recorder, now: () => 1 });
    s.targetEstablished();
    s.beginToolCall({ id: 'w', kind: 'write', tool });
    s.endToolCall({ id: 'w', ok: true });
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool })).not.toBeNull(); // UNVERIFIED_WRITE
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'status' });
    s.endToolCall({ id: 'r', ok: true });
    recorder.close();
    expect(recorder.refused).toBe(0);
    expect(longestLine(path)).toBeLessThanOrEqual(MAX_LINE_LENGTH);
    const result = await replayRecordingStream(createReadStream(path));
    expect(result.count).toBe(7);
    expect(result.divergences).toEqual([]);
    expect(result.final).toBe(s.state);
  });

  it('should refuse, report and count an entry whose line would still be too long', async () => {
    const path = join(dir, 'too-big.jsonl');
    const first = createSafetySession({ id: 'big' });
    first.targetEstablished();
    // 20 reads in flight, each with a 60,000-character tool name: a snapshot of over 1 MiB.
    for (let i = 0; i < 20; i++) first.beginToolCall({ id: `r${i}`, kind: 'read', tool: `${i}`.padEnd(60_000, 'y') });
    const recorder = createFileRecorder(path);
    const reported: unknown[] = [];
    const s = restoreSafetySession(first.persist(), { recorder, onRecorderError: (e) => reported.push(e) });
    s.endToolCall({ id: 'r0', ok: true });
    recorder.close();
    expect(recorder.refused).toBe(1);
    expect(reported).toHaveLength(1);
    expect(String((reported[0] as Error).message)).toMatch(/not written: its line would be over 1048576 characters/);
    expect(longestLine(path)).toBeLessThanOrEqual(MAX_LINE_LENGTH);
    // What was written still parses and replays (from a fresh session: the restore is missing).
    const result = await replayRecordingStream(createReadStream(path));
    expect(result.count).toBe(1);
  });
});
