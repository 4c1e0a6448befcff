import { describe, expect, it } from 'vitest';
import { parseRecording, RecordingParseError } from '../../src/index.js';
import { loadRecordingText } from '../../viz/model/loadRecording.js';
import { bigRecording, blockedRecording, toJSONL } from './fixtures.js';

const good = toJSONL(blockedRecording());
const lines = good.split('\n');

describe('loading a recording in slices', () => {
  it('should give the entries parseRecording gives, blank and CRLF lines included', async () => {
    const text = lines.join('\r\n').replace('\r\n', '\r\n\r\n   \r\n');
    const result = await loadRecordingText('crlf.jsonl', text);
    expect(result).toEqual({ ok: true, entries: parseRecording(text) });
  });

  it('should name the same bad line as parseRecording, whether it is not JSON or breaks the schema', async () => {
    for (const bad of ['{"v":1', JSON.stringify({ ...blockedRecording()[2], decision: 'maybe' })]) {
      const text = [...lines.slice(0, 3), bad, ...lines.slice(3)].join('\n');
      let expected: RecordingParseError | undefined;
      try {
        parseRecording(text);
      } catch (e) {
        expected = e as RecordingParseError;
      }
      const result = await loadRecordingText('bad.jsonl', text);
      expect(result).toEqual({ ok: false, message: `bad.jsonl, ${expected!.message}`, line: 4 });
    }
  });

  it('should open the complete lines before a torn last one, with a warning', async () => {
    const text = good + lines[1]!.slice(0, 30);
    const result = await loadRecordingText('torn.jsonl', text);
    expect(result).toMatchObject({ ok: true, entries: parseRecording(text, { allowTornTail: true }) });
    expect(result.ok && result.warning).toContain('line 12 is torn');
  });

  it('should refuse an empty file', async () => {
    expect(await loadRecordingText('empty.jsonl', '\n \n')).toEqual({
      ok: false,
      message: 'empty.jsonl: the recording is empty (no entries)',
    });
  });

  it('should give the page a turn between slices and report progress', async () => {
    const text = toJSONL(bigRecording(5000));
    const progress: number[] = [];
    let turns = 0;
    const timer = setInterval(() => (turns += 1), 0);
    const result = await loadRecordingText('big.jsonl', text, { sliceMs: 1, onProgress: (p) => progress.push(p) });
    clearInterval(timer);
    expect(result.ok && result.entries.length).toBe(5000);
    expect(turns).toBeGreaterThan(1);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toBe(1);
  });
});
