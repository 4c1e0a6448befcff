import { describe, expect, it } from 'vitest';
import { parseRecording } from '../../src/index.js';
import { loadRecordingStream, loadRecordingText, type LoadResult } from '../../viz/model/loadRecording.js';
import { blockedRecording, toJSONL } from './fixtures.js';
import { seededRandom as seeded } from '../../bench/generateRecording.js';
import { cutBytes, multibyteRecording, testStream } from './streamHelpers.js';

const good = toJSONL(multibyteRecording());
const lines = good.split('\n');
const schemaBad = JSON.stringify({ ...blockedRecording()[2], decision: 'maybe' });

/** The texts a recording can be: CRLF, blank lines, a line that is not JSON, one that breaks the schema, a torn tail, none. */
const TEXTS: Record<string, string> = {
  good,
  crlfAndBlank: lines.join('\r\n').replace('\r\n', '\r\n\r\n   \r\n'),
  noFinalNewline: good.slice(0, -1),
  notJSON: [...lines.slice(0, 3), '{"v":1', ...lines.slice(3)].join('\n'),
  schema: [...lines.slice(0, 4), schemaBad, ...lines.slice(4)].join('\n'),
  torn: good + lines[1]!.slice(0, 30),
  tornOnly: lines[1]!.slice(0, 30),
  empty: '\n \n',
};

/** What parseRecording says about `text`, as the app words it. */
function expected(name: string, text: string): LoadResult {
  try {
    const entries = parseRecording(text, { allowTornTail: true });
    if (entries.length === 0) return { ok: false, message: `${name}: the recording is empty (no entries)` };
    return { ok: true, entries };
  } catch (e) {
    const error = e as Error & { line: number };
    return { ok: false, message: `${name}, ${error.message}`, line: error.line };
  }
}

describe('loading a recording as it downloads', () => {
  it('should give the answers parseRecording gives, however the bytes are cut', async () => {
    const rnd = seeded(5);
    for (const [name, text] of Object.entries(TEXTS)) {
      const bytes = new TextEncoder().encode(text);
      const want = expected(name, text);
      for (const cuts of [0, 1, 7, 40, bytes.length]) {
        const result = await loadRecordingStream(name, testStream(cutBytes(bytes, rnd, cuts)).stream, {
          total: bytes.length,
        });
        const { warning, ...rest } = result as LoadResult & { warning?: string };
        expect(rest, `${name} cut in ${cuts + 1}`).toEqual(want);
        expect(warning !== undefined, `${name}: warned of a torn line`).toBe(name === 'torn');
      }
    }
  });

  it('should give the answers the text loader gives, warning included', async () => {
    for (const [name, text] of Object.entries(TEXTS)) {
      const bytes = new TextEncoder().encode(text);
      const streamed = await loadRecordingStream(name, testStream(cutBytes(bytes, seeded(9), 12)).stream);
      expect(streamed, name).toEqual(await loadRecordingText(name, text));
    }
  });

  it('should report progress as a share of the bytes, ending at 1', async () => {
    const bytes = new TextEncoder().encode(good.repeat(400));
    const progress: number[] = [];
    const result = await loadRecordingStream('big.jsonl', testStream(cutBytes(bytes, seeded(3), 50)).stream, {
      total: bytes.length,
      sliceMs: 0,
      onProgress: (p) => progress.push(p),
    });
    expect(result.ok && result.entries.length).toBe(400 * 11);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
  });
});
