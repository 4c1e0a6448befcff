import { describe, expect, it } from 'vitest';
import { loadRecordingStream } from '../../viz/model/loadRecording.js';
import { bigRecording, toJSONL } from './fixtures.js';
import { testStream } from './streamHelpers.js';

/** 2,000 entries in 100 chunks of 20 lines. */
function chunked(text: string): Uint8Array[] {
  const lines = text.split(/(?<=\n)/);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < lines.length; i += 20) chunks.push(new TextEncoder().encode(lines.slice(i, i + 20).join('')));
  return chunks;
}

describe('stopping a download early', () => {
  it('should cancel the download at the first bad line, with no entries', async () => {
    const lines = toJSONL(bigRecording(2000)).split('\n');
    lines[409] = '{"v":1,"session":';
    const body = testStream(chunked(lines.join('\n')));
    const result = await loadRecordingStream('bad.jsonl', body.stream);
    expect(result).toMatchObject({ ok: false, line: 410 });
    expect(!result.ok && result.message).toMatch(/^bad\.jsonl, line 410: not JSON/);
    expect(body.cancelled).toBe(true);
    expect(body.pulled).toBeLessThan(30);
  });

  it('should stop reading and cancel the download when aborted (another recording was opened)', async () => {
    const body = testStream(chunked(toJSONL(bigRecording(2000))));
    const controller = new AbortController();
    const result = await loadRecordingStream('first.jsonl', body.stream, {
      signal: controller.signal,
      sliceMs: 0,
      onProgress: () => controller.abort(),
      total: 1,
    });
    expect(result).toEqual({ ok: false, message: 'first.jsonl: opening was cancelled' });
    expect(body.cancelled).toBe(true);
    expect(body.pulled).toBeLessThan(100);
  });
});
