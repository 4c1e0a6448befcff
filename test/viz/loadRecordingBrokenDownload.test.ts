import { describe, expect, it } from 'vitest';
import { loadRecordingStream } from '../../viz/model/loadRecording.js';
import { blockedRecording, toJSONL } from './fixtures.js';
import { testStream } from './streamHelpers.js';

describe('a download that breaks off', () => {
  it('should say the download failed, naming the recording, and open nothing', async () => {
    const bytes = new TextEncoder().encode(toJSONL(blockedRecording()));
    const body = testStream([bytes.slice(0, 500), bytes.slice(500, 1000), bytes.slice(1000)], 2);
    expect(await loadRecordingStream('cut.jsonl', body.stream)).toEqual({
      ok: false,
      message: 'cut.jsonl: reading the recording failed (connection reset)',
    });
  });
});
