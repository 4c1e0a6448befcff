import { closeSync, openSync, writeSync } from 'node:fs';
import type { RecordingEntry } from '../src/safety/RecordingEntry.js';
import { createMemoryRecorder } from '../src/index.js';
import { createSafetySession } from '../src/safety/SafetySession.js';
import type { SafetySession } from '../src/safety/SafetySessionTypes.js';
import type { ToolKind } from '../src/safety/toolKind.js';

/** A small seeded PRNG (mulberry32), so every run generates the same recording. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RESOLVE = ['pulse_query', 'pulse_search_resources', 'pulse_get_resource', 'pulse_get_topology'];
const READ = ['pulse_metrics', 'pulse_read', 'pulse_get_docker_logs', 'pulse_storage', 'patrol_get_findings'];
const WRITE = ['pulse_control', 'pulse_run_command', 'pulse_docker', 'pulse_file_edit', 'pulse_kubernetes'];

/**
 * One agent session's behaviour as a generator of calls: turns of discovery,
 * reads, writes (sometimes with a read beside them, sometimes a second write
 * that gets blocked, sometimes failing), verification, final answers, the
 * compatible API, recoveries and the odd reset. Each `next()` makes one call.
 */
function* agent(s: SafetySession, rnd: () => number): Generator<void, void, void> {
  const pick = (xs: string[]) => xs[Math.floor(rnd() * xs.length)]!;
  let n = 0;
  const id = () => `call_${(n++).toString(36)}`;
  const call = function* (kind: ToolKind, tool: string, ok = true): Generator<void, void, void> {
    const c = id();
    const blocked = s.beginToolCall({ id: c, kind, tool });
    yield;
    s.endToolCall({ id: c, ok }); // a blocked call's end is recorded as ignored, as a real agent loop would send it
    yield;
    if (blocked && rnd() < 0.3) {
      s.trackPendingRecovery('FSM_BLOCKED', tool);
      yield;
    }
  };
  for (;;) {
    // a turn: discover, look, maybe change something, verify, answer
    yield* call('resolve', pick(RESOLVE));
    const reads = Math.floor(rnd() * 3);
    for (let i = 0; i < reads; i++) yield* call('read', pick(READ));
    if (rnd() < 0.7) {
      const write = pick(WRITE);
      const w = id();
      s.beginToolCall({ id: w, kind: 'write', tool: write });
      yield;
      if (rnd() < 0.3) {
        // a second write while the first is in flight: blocked
        yield* call('write', pick(WRITE));
      }
      let beside: string | undefined;
      if (rnd() < 0.3) {
        beside = id();
        s.beginToolCall({ id: beside, kind: 'read', tool: pick(READ) });
        yield;
      }
      const ok = rnd() < 0.9;
      s.endToolCall({ id: w, ok });
      yield;
      if (beside) {
        s.endToolCall({ id: beside, ok: true });
        yield;
      }
      if (rnd() < 0.2) {
        // writing again before verifying: blocked
        yield* call('write', write);
      }
      if (rnd() < 0.2) {
        s.canFinalAnswer();
        yield;
      }
      yield* call('read', pick(READ));
      s.checkRecoverySuccess(write);
      yield;
      s.completeVerification();
      yield;
    }
    if (rnd() < 0.25) {
      // the compatible API, as older agent loops use it
      const kind: ToolKind = rnd() < 0.5 ? 'read' : 'write';
      const tool = kind === 'read' ? pick(READ) : pick(WRITE);
      const blocked = s.canExecuteTool(kind, tool);
      yield;
      if (!blocked) {
        s.onToolSuccess(kind, tool);
        yield;
      }
      if (kind === 'write') {
        s.onToolSuccess('read', pick(READ));
        yield;
        s.completeVerification();
        yield;
      }
    }
    if (rnd() < 0.3) {
      s.beginToolCall({ id: id(), kind: 'user_input', tool: 'ask_user' });
      yield;
    }
    s.canFinalAnswer();
    yield;
    if (rnd() < 0.05) {
      s.reset();
      yield;
    } else if (rnd() < 0.1) {
      s.resetKeepProgress();
      yield;
    }
  }
}

/**
 * Records `count` entries of `sessions` agent sessions interleaved at random,
 * through real sessions (so every entry is exactly what the machine decides).
 */
export function recordTemplate(count: number, sessions: number, seed = 7): RecordingEntry[] {
  const rnd = seededRandom(seed);
  const recorder = createMemoryRecorder();
  let now = 1_760_000_000_000;
  const clock = () => now;
  const agents: Array<Generator<void, void, void>> = [];
  for (let k = 0; k < sessions; k++) {
    const s = createSafetySession({ id: `s${k}`, now: clock, recorder });
    agents.push(agent(s, rnd));
  }
  while (recorder.entries.length < count) {
    now += 20 + Math.floor(rnd() * 2000);
    agents[Math.floor(rnd() * sessions)]!.next();
  }
  return recorder.entries.slice(0, count);
}

export interface GeneratedRecording {
  path: string;
  events: number;
  bytes: number;
  sessions: number;
  /** Entries per block of fresh sessions. */
  blockSize: number;
}

/**
 * Writes a `events`-entry JSON Lines recording to `path` without holding it
 * in memory: a template of `blockSize` entries from `sessionsPerBlock`
 * interleaved sessions is recorded once through real sessions, then written
 * block after block, each block under fresh session ids (other agents'
 * sessions over the same window of time).
 */
export function generateRecording(
  path: string,
  { events = 1_000_000, blockSize = 10_000, sessionsPerBlock = 8, seed = 7 } = {},
): GeneratedRecording {
  const template = recordTemplate(Math.min(blockSize, events), sessionsPerBlock, seed);
  // Serialise the template once, around a placeholder session id; each block then only copies bytes.
  const PLACEHOLDER = '"@@session@@"';
  const lines = template.map((e) => {
    const [head, tail] = JSON.stringify({ ...e, session: '@@session@@' }).split(PLACEHOLDER) as [string, string];
    return { head: Buffer.from(head + '"agent-'), tail: Buffer.from(`-${e.session}"${tail}\n`) };
  });
  let largest = 0;
  for (const { head, tail } of lines) largest += head.length + 16 + tail.length;
  const buf = Buffer.allocUnsafe(largest);
  const fd = openSync(path, 'w');
  let written = 0;
  let bytes = 0;
  let block = 0;
  try {
    while (written < events) {
      const blockId = Buffer.from(block.toString().padStart(6, '0'));
      const count = Math.min(lines.length, events - written);
      let at = 0;
      for (let i = 0; i < count; i++) {
        const { head, tail } = lines[i]!;
        buf.set(head, at);
        at += head.length;
        buf.set(blockId, at);
        at += blockId.length;
        buf.set(tail, at);
        at += tail.length;
      }
      for (let off = 0; off < at;) off += writeSync(fd, buf, off, at - off);
      bytes += at;
      written += count;
      block++;
    }
  } finally {
    closeSync(fd);
  }
  return { path, events, bytes, sessions: block * sessionsPerBlock, blockSize: lines.length };
}
