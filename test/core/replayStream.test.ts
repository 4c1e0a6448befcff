import { createReadStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  createMemoryRecorder,
  createRecordingReplayer,
  createSafetyMachine,
  createSafetySession,
  parseRecording,
  RecordingParseError,
  replayRecording,
  replayRecordingStream,
  type RecordingChunk,
  type RecordingEntry,
} from 'assistant-safety';
import { recordTemplate } from '../../bench/generateRecording.js';
import { manualClock } from './clock.js';
import { driveEverything } from './fixtures.js';

/** A recording with every call kind, four interleaved sessions, and two entries the machine does not reproduce. */
function tampered(): RecordingEntry[] {
  const entries = recordTemplate(3000, 4, 11);
  const i = entries.findIndex((e) => e.decision === 'blocked');
  const j = entries.findIndex((e, k) => k > i && e.call.type === 'endToolCall' && e.decision === 'applied');
  entries[i] = { ...entries[i]!, decision: 'allowed' };
  entries[j] = { ...entries[j]!, context: { ...entries[j]!.context, writeEpoch: 99 } };
  return entries;
}

const jsonl = (entries: RecordingEntry[]) => entries.map((e) => JSON.stringify(e) + '\n').join('');

/** The text as byte chunks of `size` (cutting lines and UTF-8 characters anywhere). */
function* byteChunks(text: string, size: number): Generator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** The text as string chunks of `size` characters (code points: a string chunk is whole text). */
function* stringChunks(text: string, size: number): Generator<string> {
  const chars = Array.from(text);
  for (let at = 0; at < chars.length; at += size) yield chars.slice(at, at + size).join('');
}

async function parseError(run: () => Promise<unknown>): Promise<RecordingParseError> {
  try {
    await run();
  } catch (e) {
    expect(e).toBeInstanceOf(RecordingParseError);
    return e as RecordingParseError;
  }
  throw new Error('expected a RecordingParseError');
}

describe('replayRecordingStream', () => {
  it('should find what replayRecording finds, divergences included', async () => {
    const entries = tampered();
    const expected = replayRecording(entries);
    expect(expected.divergences.length).toBeGreaterThanOrEqual(2);
    const result = await replayRecordingStream([jsonl(entries)]);
    const { count, divergenceCount, tornLine, ...replay } = result;
    expect(replay).toEqual(expected);
    expect(count).toBe(entries.length);
    expect(divergenceCount).toBe(expected.divergences.length);
    expect(tornLine).toBeUndefined();
  });

  it('should find the divergences of a changed machine as replayRecording does', async () => {
    const def = JSON.parse(readFileSync(new URL('../../machines/assistant-safety.json', import.meta.url), 'utf8'));
    def.states.WRITING.on.BEGIN_CALL = [];
    const machine = createSafetyMachine(def);
    const entries = recordTemplate(2000, 3, 5);
    const expected = replayRecording(entries, { machine });
    expect(expected.divergences.length).toBeGreaterThan(0);
    const {
      count: _c,
      divergenceCount: _d,
      ...replay
    } = await replayRecordingStream([jsonl(entries)], {
      machine,
      keepDivergences: Infinity,
    });
    expect(replay).toEqual(expected);
  });

  it('should read the same entries however the text is cut into chunks', async () => {
    const clock = manualClock();
    const recorder = createMemoryRecorder();
    // Multi-byte tool names, so byte chunks cut inside UTF-8 characters.
    const s = createSafetySession({ recorder, now: clock.now, id: 'sé-🙂' });
    driveEverything(s, clock);
    s.onToolSuccess('read', 'lire_état_🙂');
    const text = recorder.toJSONL().replace(/\n/g, (_, at: number) => (at % 3 === 0 ? '\r\n\n' : '\n'));
    const expected = replayRecording(parseRecording(text));
    const sources: Array<[string, Iterable<RecordingChunk>]> = [
      ['one string', [text]],
      ...[1, 2, 3, 7, 64, 1 << 20].map((n): [string, Iterable<RecordingChunk>] => [
        `bytes of ${n}`,
        byteChunks(text, n),
      ]),
      ...[1, 5, 100].map((n): [string, Iterable<RecordingChunk>] => [`strings of ${n}`, stringChunks(text, n)]),
      ['strings and bytes, alternating', [...stringChunks(text, 9)].map((c, i) => (i % 2 ? Buffer.from(c) : c))],
    ];
    for (const [name, source] of sources) {
      const result = await replayRecordingStream(source);
      expect(result.count, name).toBe(recorder.entries.length);
      expect(result.sessions, name).toEqual(expected.sessions);
      expect(result.divergences, name).toEqual([]);
    }
  });

  it('should read a Node read stream and a web ReadableStream', async () => {
    const entries = recordTemplate(500, 2, 3);
    const path = join(mkdtempSync(join(tmpdir(), 'as-stream-')), 'r.jsonl');
    writeFileSync(path, jsonl(entries));
    const expected = replayRecording(entries);
    const fromFile = await replayRecordingStream(createReadStream(path, { highWaterMark: 4096 }));
    expect(fromFile.sessions).toEqual(expected.sessions);
    expect(fromFile.count).toBe(entries.length);
    const web = Readable.toWeb(createReadStream(path)) as unknown as AsyncIterable<Uint8Array>;
    expect((await replayRecordingStream(web)).count).toBe(entries.length);
  });

  it('should name the line and the field of a malformed line, as parseRecording does', async () => {
    const lines = jsonl(recordTemplate(50, 2, 3)).split('\n');
    const entry = JSON.parse(lines[6]!);
    entry.context.writeEpoch = -1;
    const cases = [
      [...lines.slice(0, 6), JSON.stringify(entry), ...lines.slice(7)].join('\n'),
      [...lines.slice(0, 3), '', '{"v":1,', ...lines.slice(3)].join('\n'),
      [...lines.slice(0, 2), '{"v":1}', ...lines.slice(2)].join('\n'),
    ];
    for (const text of cases) {
      const expected = await parseError(async () => parseRecording(text));
      for (const source of [[text], byteChunks(text, 100)]) {
        const seen: number[] = [];
        const error = await parseError(() => replayRecordingStream(source, { onEntry: (n) => seen.push(n) }));
        expect(error.message).toBe(expected.message);
        expect(error.line).toBe(expected.line);
        expect(error.torn).toBe(false);
        expect(seen.length, 'the entries before the bad line were replayed').toBe(expected.entries.length);
      }
    }
    const error = await parseError(() =>
      replayRecordingStream([[...lines.slice(0, 6), JSON.stringify(entry)].join('\n')]),
    );
    expect(error.message).toMatch(/^line 7: context\.writeEpoch: /);
  });

  it('should report a torn last line, or skip it when asked', async () => {
    const text = jsonl(recordTemplate(40, 2, 3));
    const torn = text.slice(0, -40);
    const error = await parseError(() => replayRecordingStream([torn]));
    expect(error.torn).toBe(true);
    expect(error.line).toBe(40);
    expect(error.message).toMatch(/^line 40: incomplete last line \(torn write.*the 39 complete lines/);
    let told = 0;
    const result = await replayRecordingStream(byteChunks(torn, 333), {
      allowTornTail: true,
      onTornTail: (line) => (told = line),
    });
    expect(result).toMatchObject({ count: 39, tornLine: 40 });
    expect(told).toBe(40);
  });

  it('should keep the first divergences, count all of them, and tell each as it is found', async () => {
    const entries = recordTemplate(300, 2, 3).map((e) =>
      e.call.type === 'create' ? e : { ...e, context: { ...e.context, writeEpoch: 1000 } },
    );
    const told: Array<[number, string]> = [];
    const result = await replayRecordingStream([jsonl(entries)], {
      keepDivergences: 5,
      onDivergence: (d, entry) => told.push([d.index, entry.call.type]),
    });
    expect(result.divergences).toHaveLength(5);
    expect(result.divergenceCount).toBe(entries.length - 2);
    expect(told).toHaveLength(result.divergenceCount);
    expect(told[0]).toEqual([result.divergences[0]!.index, entries[result.divergences[0]!.index]!.call.type]);
    expect(replayRecording(entries).divergences.slice(0, 5)).toEqual(result.divergences);
  });

  it('should replay an empty or blank recording to the initial state', async () => {
    for (const text of ['', '\n\n', '  \r\n']) {
      expect(await replayRecordingStream([text])).toEqual({
        final: 'RESOLVING',
        sessions: {},
        divergences: [],
        count: 0,
        divergenceCount: 0,
      });
    }
  });

  it('should refuse chunks that are not text or bytes', async () => {
    await expect(replayRecordingStream([42 as unknown as string])).rejects.toThrow(/strings or bytes/);
  });
});

describe('createRecordingReplayer', () => {
  it('should replay entries pushed one at a time as replayRecording replays the list', () => {
    const entries = tampered();
    const replayer = createRecordingReplayer();
    for (const e of entries) replayer.push(e);
    expect(replayer.count).toBe(entries.length);
    expect(replayer.result()).toEqual(replayRecording(entries));
    expect(replayer.divergenceCount).toBe(replayer.result().divergences.length);
  });
});
