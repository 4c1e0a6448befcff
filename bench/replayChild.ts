import { createReadStream } from 'node:fs';
import { replayRecordingStream } from '../src/index.js';
import { forEachLine } from './forEachLine.js';

/*
 * One streamed pass over a recording file, in a process of its own so its
 * peak RSS is its own: `replay` (the library's `replayRecordingStream`) or
 * `json` (bare JSON.parse of the same lines, read by the same line loop: the
 * baseline). Prints one JSON
 * line: events, milliseconds, peak RSS and RSS samples along the stream.
 *
 *   node --import tsx bench/replayChild.ts replay|json FILE
 */

/** What one pass reports. */
export interface PassReport {
  mode: 'replay' | 'json';
  events: number;
  ms: number;
  divergences: number;
  /** Peak resident set size of the process, bytes. */
  maxRss: number;
  /** RSS after the first tenth of the lines and at the end, bytes. */
  rssAtTenth: number;
  rssAtEnd: number;
}

async function main() {
  const [mode, path] = process.argv.slice(2);
  if ((mode !== 'replay' && mode !== 'json') || !path) throw new Error('usage: replayChild.ts replay|json FILE');
  const total = Number(process.env.BENCH_EVENTS ?? 0);
  const tenth = Math.max(1, Math.floor(total / 10));
  let rssAtTenth = 0;
  const t = performance.now();
  let events = 0;
  let divergences = 0;
  if (mode === 'json') {
    let sink: unknown;
    await forEachLine(path, (line) => {
      if (line.length === 0) return;
      sink = JSON.parse(line);
      if (++events === tenth) rssAtTenth = process.memoryUsage.rss();
    });
    void sink;
  } else {
    const result = await replayRecordingStream(createReadStream(path, { highWaterMark: 1 << 20 }), {
      onEntry: (n: number) => {
        if (n === tenth) rssAtTenth = process.memoryUsage.rss();
      },
    });
    events = result.count;
    divergences = result.divergenceCount;
  }
  const ms = performance.now() - t;
  const report: PassReport = {
    mode,
    events,
    ms,
    divergences,
    maxRss: process.resourceUsage().maxRSS * 1024,
    rssAtTenth,
    rssAtEnd: process.memoryUsage.rss(),
  };
  process.stdout.write(JSON.stringify(report) + '\n');
}

await main();
