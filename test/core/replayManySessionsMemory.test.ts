import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createMemoryRecorder, createSafetySession, replayRecordingStream } from 'assistant-safety';

/*
 * A recording of 100,000 one-line sessions (each only its `create` entry)
 * replays in bounded memory: the replayer parks each session as a small
 * snapshot, and sessions parked in the same state share one. The heap the
 * replay holds at its last entry (after a full collection) is measured against
 * the figure docs/limits.md gives.
 */

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const N = 100_000;
/** The figure docs/limits.md states for this file, in MB of heap held at the end of the replay. */
const DOCUMENTED_MB = Number(
  /100,000 one-line sessions holds under (\d+) MB of heap/.exec(
    readFileSync(new URL('../../docs/limits.md', import.meta.url), 'utf8'),
  )?.[1],
);

function* oneLineSessions(): Generator<string> {
  const recorder = createMemoryRecorder();
  createSafetySession({ id: 'x', recorder });
  const line = JSON.stringify(recorder.entries[0]);
  let chunk = '';
  for (let i = 0; i < N; i++) {
    chunk += line.replace('"session":"x"', `"session":"session-${i}"`) + '\n';
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

describe('replaying 100,000 one-line sessions', () => {
  it('should hold no more heap than documented', async () => {
    const before = heap();
    let held = 0;
    const result = await replayRecordingStream(oneLineSessions(), {
      onEntry: (count) => {
        if (count === N) held = heap() - before;
      },
    });
    expect(result.count).toBe(N);
    expect(result.divergenceCount).toBe(0);
    expect(Object.keys(result.sessions)).toHaveLength(N);
    console.log(`100,000 one-line sessions: ${(held / 1e6).toFixed(1)} MB of heap held at the last entry`);
    expect(DOCUMENTED_MB).toBeGreaterThan(0);
    expect(held / 1e6).toBeLessThan(DOCUMENTED_MB);
  }, 120_000);
});
