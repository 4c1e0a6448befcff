import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateRecording } from './generateRecording.js';
import { makeFigure, ratioText, type Figure } from './measure.js';
import type { PassReport } from './replayChild.js';

export interface ReplaySizes {
  /** Entries in the generated recording. */
  events: number;
  /** Streamed passes of each kind (replay, bare JSON.parse), interleaved, each in a fresh process. */
  runs: number;
}

const CHILD = fileURLToPath(new URL('./replayChild.ts', import.meta.url));
const MB = 1024 * 1024;

/** Runs one pass in a fresh node process (bounded: ten minutes). */
function pass(mode: 'replay' | 'json', path: string, events: number): Promise<PassReport> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CHILD, mode, path],
      { env: { ...process.env, BENCH_EVENTS: String(events) }, timeout: 600_000, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`replay ${mode} pass failed: ${error.message}\n${stderr}`));
        try {
          resolve(JSON.parse(stdout.trim().split('\n').pop()!) as PassReport);
        } catch (e) {
          reject(new Error(`replay ${mode} pass printed no report: ${(e as Error).message}\n${stdout}\n${stderr}`));
        }
      },
    );
  });
}

/**
 * Part 3: replay. Generates an `events`-entry recording into a temp file
 * (several interleaved sessions, a realistic mix of calls), then streams it
 * through `replayRecordingStream`, and line by line through bare
 * `JSON.parse` as the baseline, each pass in a fresh process: events per
 * second and the pass's peak RSS.
 */
export async function replayFigures({ events = 1_000_000, runs = 3 }: Partial<ReplaySizes> = {}): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'assistant-safety-bench-'));
  try {
    const t = performance.now();
    const rec = generateRecording(join(dir, 'recording.jsonl'), { events });
    const generateMs = performance.now() - t;
    const replays: PassReport[] = [];
    const jsons: PassReport[] = [];
    for (let i = 0; i < runs; i++) {
      jsons.push(await pass('json', rec.path, events));
      replays.push(await pass('replay', rec.path, events));
    }
    for (const r of [...replays, ...jsons]) {
      if (r.events !== events) throw new Error(`a ${r.mode} pass read ${r.events} events, expected ${events}`);
    }
    const diverged = replays.find((r) => r.divergences > 0);
    if (diverged) throw new Error(`the generated recording diverged on replay (${diverged.divergences} divergences)`);
    const rate = (r: PassReport) => (r.events / r.ms) * 1000;
    const growth = (r: PassReport) => (r.rssAtEnd - r.rssAtTenth) / MB;
    const what =
      `${events.toLocaleString('en-US')} events, ${(rec.bytes / MB).toFixed(0)} MB, ${rec.sessions} sessions ` +
      `(${rec.sessions / Math.ceil(events / rec.blockSize)} interleaved per block of ${rec.blockSize.toLocaleString('en-US')}), ` +
      `generated in ${(generateMs / 1000).toFixed(1)} s; each pass a fresh process`;
    return [
      makeFigure({
        suite: 'replay',
        name: 'replayRecordingStream of a file',
        unit: 'events/s',
        better: 'higher',
        runs: replays.map(rate),
        baseline: {
          name: 'bare JSON.parse of the same lines, streamed',
          runs: jsons.map(rate),
          describe: (x) => ratioText(x, 'slower'),
        },
        target: { text: 'within 2× of bare JSON.parse', test: (_s, ratio) => ratio !== undefined && ratio <= 2 },
        note: what,
      }),
      makeFigure({
        suite: 'replay',
        name: 'peak RSS of a replay pass',
        unit: 'MB',
        better: 'lower',
        runs: replays.map((r) => r.maxRss / MB),
        baseline: { name: 'peak RSS of a JSON.parse pass', runs: jsons.map((r) => r.maxRss / MB) },
        target: {
          text: 'flat: RSS grows < 64 MB from 10% to 100% of the stream',
          test: () => replays.every((r) => growth(r) < 64),
        },
        note: `RSS growth from 10% to 100% of the stream: ${replays.map((r) => growth(r).toFixed(1)).join(', ')} MB (replay); ${jsons.map((r) => growth(r).toFixed(1)).join(', ')} MB (JSON.parse)`,
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
