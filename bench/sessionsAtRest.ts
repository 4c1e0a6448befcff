import { createSafetySession, restoreSafetySession } from '../src/safety/SafetySession.js';
import type { SafetySession } from '../src/safety/SafetySessionTypes.js';
import { initialReducerState, reduce, type ReducerState } from './baselineReducer.js';
import { canGc, gc, makeFigure, opsPerSecondPaired, ratioText, type Figure } from './measure.js';

export interface AtRestSizes {
  /** Idle sessions held alive at once for the heap figure. */
  sessions: number;
  /** Heap measurements of each side (each builds `sessions` sessions). */
  heapRuns: number;
  /** Restores per run. */
  restores: number;
  /** Measured runs of the restore figure. */
  runs: number;
}

/** 1 GB as the target counts it: 10^9 bytes (the stricter reading). */
const GB = 1e9;

/** Keeps what a measurement built reachable until after the measurement (V8 would drop it otherwise). */
const sink: { value: unknown } = { value: undefined };

/** A session's life before it goes idle: discover the target, read it. */
function idleSession(t: { now: number }): SafetySession {
  const s = createSafetySession({ now: () => t.now++ });
  s.beginToolCall({ id: 'c1', kind: 'resolve', tool: 'find_vm' });
  s.endToolCall({ id: 'c1', ok: true });
  s.beginToolCall({ id: 'c2', kind: 'read', tool: 'vm_status' });
  s.endToolCall({ id: 'c2', ok: true });
  return s;
}

/** The same life through the reducer, with an id as a session has. */
function idleReducer(t: { now: number }): { id: string; state: ReducerState } {
  let s = initialReducerState;
  s = reduce(s, { type: 'BEGIN', id: 'c1', kind: 'resolve', tool: 'find_vm', at: t.now++ });
  s = reduce(s, { type: 'END', id: 'c1', ok: true, at: t.now++ });
  s = reduce(s, { type: 'BEGIN', id: 'c2', kind: 'read', tool: 'vm_status', at: t.now++ });
  s = reduce(s, { type: 'END', id: 'c2', ok: true, at: t.now++ });
  return { id: globalThis.crypto.randomUUID(), state: s };
}

/** Heap bytes per item of `count` items built by `make`, all alive at the second measurement. */
function heapPerItem(make: () => unknown, count: number): number {
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const items: unknown[] = new Array(count);
  for (let i = 0; i < count; i++) items[i] = make();
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  sink.value = items; // still reachable here, after the measurement
  const perItem = (after - before) / count;
  sink.value = undefined;
  return perItem;
}

/**
 * Representative sessions for snapshot size: fresh, idle, a write and a read
 * in flight, verifying with a pending recovery, and a long session.
 */
function snapshotScenarios(): Array<{ name: string; session: SafetySession; reducer: ReducerState }> {
  let now = 1_760_000_000_000;
  const clock = () => (now += 1000);
  const out: Array<{ name: string; session: SafetySession; reducer: ReducerState }> = [];
  const run = (name: string, steps: Array<(s: SafetySession) => void>, events: Parameters<typeof reduce>[1][]) => {
    const session = createSafetySession({ now: clock });
    for (const step of steps) step(session);
    let reducer = initialReducerState;
    for (const e of events) reducer = reduce(reducer, e);
    out.push({ name, session, reducer });
  };
  const at = 1_760_000_000_000;
  run('fresh', [], []);
  run(
    'idle after a read',
    [
      (s) => s.beginToolCall({ id: 'call_01', kind: 'resolve', tool: 'find_vm' }),
      (s) => s.endToolCall({ id: 'call_01', ok: true }),
      (s) => s.beginToolCall({ id: 'call_02', kind: 'read', tool: 'vm_status' }),
      (s) => s.endToolCall({ id: 'call_02', ok: true }),
    ],
    [
      { type: 'BEGIN', id: 'call_01', kind: 'resolve', tool: 'find_vm', at },
      { type: 'END', id: 'call_01', ok: true, at },
      { type: 'BEGIN', id: 'call_02', kind: 'read', tool: 'vm_status', at },
      { type: 'END', id: 'call_02', ok: true, at },
    ],
  );
  run(
    'write and read in flight',
    [
      (s) => s.beginToolCall({ id: 'call_01', kind: 'resolve', tool: 'find_vm' }),
      (s) => s.endToolCall({ id: 'call_01', ok: true }),
      (s) => s.beginToolCall({ id: 'call_02', kind: 'write', tool: 'restart_vm' }),
      (s) => s.beginToolCall({ id: 'call_03', kind: 'read', tool: 'vm_status' }),
    ],
    [
      { type: 'BEGIN', id: 'call_01', kind: 'resolve', tool: 'find_vm', at },
      { type: 'END', id: 'call_01', ok: true, at },
      { type: 'BEGIN', id: 'call_02', kind: 'write', tool: 'restart_vm', at },
      { type: 'BEGIN', id: 'call_03', kind: 'read', tool: 'vm_status', at },
    ],
  );
  run(
    'verifying, recovery pending',
    [
      (s) => s.beginToolCall({ id: 'call_01', kind: 'resolve', tool: 'find_vm' }),
      (s) => s.endToolCall({ id: 'call_01', ok: true }),
      (s) => s.beginToolCall({ id: 'call_02', kind: 'write', tool: 'restart_vm' }),
      (s) => s.endToolCall({ id: 'call_02', ok: true }),
      (s) => s.beginToolCall({ id: 'call_03', kind: 'write', tool: 'stop_vm' }),
      (s) => s.trackPendingRecovery('FSM_BLOCKED', 'stop_vm'),
    ],
    [
      { type: 'BEGIN', id: 'call_01', kind: 'resolve', tool: 'find_vm', at },
      { type: 'END', id: 'call_01', ok: true, at },
      { type: 'BEGIN', id: 'call_02', kind: 'write', tool: 'restart_vm', at },
      { type: 'END', id: 'call_02', ok: true, at },
      { type: 'BEGIN', id: 'call_03', kind: 'write', tool: 'stop_vm', at },
    ],
  );
  const long: Array<(s: SafetySession) => void> = [];
  const longEvents: Parameters<typeof reduce>[1][] = [];
  for (let i = 0; i < 50; i++) {
    const id = (n: number) => `call_${i}_${n}`;
    long.push(
      (s) => s.beginToolCall({ id: id(1), kind: 'resolve', tool: 'find_vm' }),
      (s) => s.endToolCall({ id: id(1), ok: true }),
      (s) => s.beginToolCall({ id: id(2), kind: 'write', tool: 'restart_vm' }),
      (s) => s.endToolCall({ id: id(2), ok: true }),
      (s) => s.beginToolCall({ id: id(3), kind: 'read', tool: 'vm_status' }),
      (s) => s.endToolCall({ id: id(3), ok: true }),
      (s) => s.completeVerification(),
    );
    longEvents.push(
      { type: 'BEGIN', id: id(1), kind: 'resolve', tool: 'find_vm', at },
      { type: 'END', id: id(1), ok: true, at },
      { type: 'BEGIN', id: id(2), kind: 'write', tool: 'restart_vm', at },
      { type: 'END', id: id(2), ok: true, at },
      { type: 'BEGIN', id: id(3), kind: 'read', tool: 'vm_status', at },
      { type: 'END', id: id(3), ok: true, at },
      { type: 'COMPLETE' },
    );
  }
  run('after 50 write cycles', long, longEvents);
  return out;
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/**
 * Part 2: sessions at rest. Heap bytes per idle session with `sessions`
 * alive (and so sessions per GB), JSON bytes per persisted snapshot, and
 * restores plus one decision per second; baselines are the reducer's state
 * for the same sessions and a bare `JSON.parse` of the same snapshot.
 */
export function atRestFigures({
  sessions = 100_000,
  heapRuns = 3,
  restores = 20_000,
  runs = 5,
}: Partial<AtRestSizes> = {}): Figure[] {
  if (!canGc()) throw new Error('sessions at rest needs node --expose-gc for honest heap figures');
  const t = { now: 1_760_000_000_000 };
  const heap: number[] = [];
  const heapBase: number[] = [];
  for (let i = 0; i < heapRuns; i++) {
    heap.push(heapPerItem(() => idleSession(t), sessions));
    heapBase.push(heapPerItem(() => idleReducer(t), sessions));
  }
  const note = `${sessions.toLocaleString('en-US')} idle sessions alive (discovered, read), 1 GB = 10^9 B`;
  const perSession = makeFigure({
    suite: 'at rest',
    name: 'heap per idle session',
    unit: 'B',
    better: 'lower',
    runs: heap,
    baseline: { name: 'reducer state + id, same sessions', runs: heapBase },
    target: { text: '≤ 10,000 B (≥ 100,000 per GB)', test: (s) => s.median <= GB / 100_000 },
    note,
  });
  const perGb = makeFigure({
    suite: 'at rest',
    name: 'idle sessions per GB',
    unit: 'sessions',
    better: 'higher',
    runs: heap.map((b) => GB / b),
    baseline: {
      name: 'reducer state + id, same sessions',
      runs: heapBase.map((b) => GB / b),
      describe: (x) => ratioText(x, 'fewer'),
    },
    target: { text: '≥ 100,000 per GB', test: (s) => s.median >= 100_000 },
    note,
  });

  const scenarios = snapshotScenarios();
  const snapshot = makeFigure({
    suite: 'at rest',
    name: 'persisted snapshot (JSON)',
    unit: 'B',
    better: 'lower',
    runs: scenarios.map((s) => bytesOf(s.session.persist())),
    baseline: { name: 'reducer state JSON, same sessions', runs: scenarios.map((s) => bytesOf(s.reducer)) },
    target: { text: 'every snapshot < 1 KB (1,024 B)', test: (s) => s.max < 1024 },
    note: `spread over ${scenarios.length} sessions: ${scenarios.map((s) => s.name).join('; ')}`,
  });

  // Restore a realistic snapshot (a write and a read in flight) and decide one call, from the snapshot's
  // JSON text (the form a store holds: the restore parses it and owns the result) and from an object
  // the caller parsed (the restore copies it, as the caller may change it afterwards).
  const text = JSON.stringify(scenarios[2]!.session.persist());
  let now = 1_760_000_100_000;
  const clock = () => now++;
  const restoreFigureOf = (from: 'text' | 'object'): Figure => {
    let blocked = 0;
    let restoreCalls = 0; // the timer repeats a short call, so count them rather than assume runs + 1
    const restore =
      from === 'text'
        ? () => {
            restoreCalls++;
            for (let i = 0; i < restores; i++) {
              const s = restoreSafetySession(text, { now: clock });
              if (s.beginToolCall({ id: 'next', kind: 'write', tool: 'stop_vm' })) blocked++;
            }
          }
        : () => {
            restoreCalls++;
            for (let i = 0; i < restores; i++) {
              const s = restoreSafetySession(JSON.parse(text), { now: clock });
              if (s.beginToolCall({ id: 'next', kind: 'write', tool: 'stop_vm' })) blocked++;
            }
          };
    const parse = () => {
      for (let i = 0; i < restores; i++) sink.value = JSON.parse(text);
    };
    const [r, rBase] = opsPerSecondPaired(restore, parse, restores, runs);
    if (blocked !== restores * restoreCalls) throw new Error('restored sessions decided differently than expected');
    return makeFigure({
      suite: 'at rest',
      name:
        from === 'text' ? 'restore from the JSON text + one decision' : 'restore from a parsed object + one decision',
      unit: 'restores/s',
      better: 'higher',
      runs: r,
      baseline: { name: 'JSON.parse of the same snapshot', runs: rBase, describe: (x) => ratioText(x, 'slower') },
      target: { text: 'within 3× of JSON.parse', test: (_s, ratio) => ratio !== undefined && ratio <= 3 },
      note:
        `snapshot of ${Buffer.byteLength(text)} B (write and read in flight); the decision: a second write, blocked; ` +
        (from === 'text'
          ? 'restored from its JSON text, as a store holds it'
          : 'restored from JSON.parse of it (included in the figure), which the restore copies'),
    });
  };
  const restoreFigure = restoreFigureOf('text');
  const restoreFromObject = restoreFigureOf('object');
  return [perSession, perGb, snapshot, restoreFigure, restoreFromObject];
}
