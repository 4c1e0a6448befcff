/*
 * A real agent process streaming to the visualiser's live hub:
 *
 *   tsx scripts/live-agent.ts URL [--delay MS] [--recording FILE] [--name NAME]
 *
 * Runs the demo agent (examples/demoAgent.ts) once: its scenarios, one live
 * session each, labelled "NAME: <scenario title>" in the app; with
 * --recording, or when the demo agent is not there, it plays that recording
 * (or the first shipped one) as a live session instead. `npm start` and the
 * end-to-end tests run it. Ctrl-C (or SIGTERM) ends it quietly: the sessions'
 * sockets are closed, with no "lost the connection" noise.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exampleArgs } from '../examples/exampleArgs.js';
import { createLiveRecorder, type LiveRecorder } from '../src/node/createLiveRecorder.js';
import { DEMO_SCENARIOS } from '../examples/demoScenarios.js';
import { parseRecording } from '../src/index.js';
import type { SessionRecorder } from '../src/safety/RecordingEntry.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values, positionals } = exampleArgs('live-agent', {
  allowPositionals: true,
  options: {
    delay: { type: 'string', default: '300' },
    recording: { type: 'string' },
    name: { type: 'string', default: 'demo agent' },
    /** Run the demo again and again (npm start), with fresh session ids each run. */
    loop: { type: 'boolean', default: false },
  },
});
const url = positionals[0];
if (!url) {
  console.error('usage: tsx scripts/live-agent.ts URL [--delay MS] [--recording FILE] [--name NAME]');
  process.exit(2);
}
const delayMs = Number(values.delay);
const live: LiveRecorder[] = [];
let run = 0;
// Set once asked to stop: the server may already be going, and nothing about it is news then.
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await Promise.all(live.splice(0).map((r) => r.close().catch(() => undefined)));
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

/** The label of a session in the app: the agent's name and, for the demo, the scenario's title. */
const labelOf = (sessionId?: string) => {
  const scenario = sessionId && DEMO_SCENARIOS.find((s) => sessionId === `demo-${s.name}`);
  return scenario ? `${values.name}: ${scenario.title}` : values.name;
};
const liveRecorder = (sessionId?: string): SessionRecorder => {
  const recorder = createLiveRecorder({
    url,
    name: labelOf(sessionId),
    onError: (e) => {
      if (!stopping) console.error(`live-agent: ${e.message} (still working; will retry)`);
    },
  });
  live.push(recorder);
  if (!values.loop) return recorder;
  // Each run of the loop is a new session in the app, not more of the same one.
  const suffix = `#${run}`;
  return { record: (entry) => recorder.record({ ...entry, session: `${entry.session}${suffix}` }) };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * Closes recorders once the server has every entry. The bound is generous (a busy machine may take
 * seconds to accept 8 sockets): what was not delivered by then is said, and the exit code is 1.
 */
const DELIVERY_TIMEOUT_MS = 60_000;
async function closeDelivered(recorders: LiveRecorder[]): Promise<void> {
  await Promise.all(recorders.map((r) => r.close({ timeoutMs: DELIVERY_TIMEOUT_MS })));
  const undelivered = recorders.reduce((n, r) => n + r.pending, 0);
  if (undelivered > 0 && !stopping) {
    console.error(`live-agent: ${undelivered} entries never reached the server`);
    process.exitCode = 1;
  }
}

async function playRecording(file: string): Promise<void> {
  const entries = parseRecording(readFileSync(file, 'utf8'), { allowTornTail: true });
  const stamp = new Date().toISOString().slice(11, 19);
  const recorder = liveRecorder();
  console.log(`live-agent: playing ${file} (${entries.length} events) as a live session`);
  for (const entry of entries) {
    // A fresh session id per run, so a replay does not land in an earlier run's session.
    recorder.record({ ...entry, session: `${entry.session}@${stamp}` });
    await sleep(delayMs);
  }
}

const demo = join(root, 'examples', 'demoAgent.ts');
if (values.recording === undefined && existsSync(demo)) {
  const { runDemoAgent } = (await import(demo)) as typeof import('../examples/demoAgent.js');
  console.log('live-agent: running the demo agent');
  do {
    run += 1;
    const runs = await runDemoAgent({ delayMs, recorderFor: liveRecorder });
    for (const r of runs) console.log(`live-agent: ${r.sessionId} ends in ${r.finalState}`);
    // One socket per session: close this run's before the next.
    await closeDelivered(live.splice(0));
    if (values.loop) await sleep(5000);
  } while (values.loop);
} else {
  const dir = join(root, 'recordings');
  const shipped = existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith('.jsonl'))
        .sort()
    : [];
  const file = values.recording ?? (shipped[0] && join(dir, shipped[0]));
  if (!file) {
    console.error('live-agent: no demo agent and no recording to play');
    process.exit(1);
  }
  await playRecording(file);
}
await closeDelivered(live.splice(0));
console.log('live-agent: done');
