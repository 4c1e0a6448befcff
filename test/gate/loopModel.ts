import {
  createSafetySession,
  createToolLoop,
  replayRecording,
  restoreSafetySession,
  ToolLoopError,
  type RecordingEntry,
  type SafetySession,
  type ToolCall,
  type ToolKind,
  type ToolLoop,
} from '../../src/index.js';
import {
  type Behaviour,
  type CallSpec,
  type DirectOp,
  type Scenario,
  type Step,
  TIMEOUT_MS,
  argsOf,
  classify,
  kindOf,
  prng,
  tick,
} from './loopScenario.js';

/*
 * A model-based test of the tool loop with faulty tools, shared by
 * test/gate/loopModel.test.ts (npm test) and soak/gate.soak.ts (npm run soak).
 *
 * A run is a random sequence of steps: batches run through `createToolLoop`
 * whose tools resolve, reject with any value, throw, hang, ignore or honour
 * their signal, time out or are aborted; compatible-API and call-lifecycle
 * calls made directly on the same session between and during batches; final
 * answers; throwing listeners and recorders; hostile ids and arguments. The
 * driver decides, from the run's seed, when each tool settles and when timers
 * and aborts fire, so a seed replays exactly.
 *
 * After every step (and at every write a tool starts, and every final answer
 * the session allows) it checks:
 * - no write tool starts while another write is in flight on the session or
 *   its tool is still running (a timed-out or aborted write included);
 * - no final answer is allowed after a write that may have landed without a
 *   resolve or read begun after that landing and succeeded (reset and
 *   resetKeepProgress waive it, as the semantics say);
 * - nothing crashes the process (the caller listens for unhandledRejection
 *   and uncaughtException) and `runBatch` always settles, rejecting only
 *   with a ToolLoopError for input it cannot use;
 * - the session's snapshot restores, and the recording replays with no divergence.
 */

/** A tool call the driver runs: the loop started it, the driver settles it. */
interface Running {
  key: number;
  id: string;
  kind: ToolKind;
  behaviour: Behaviour;
  value: unknown;
  settled: boolean;
  /** How it settled: resolved (the tool acted), rejected (it reported failure). */
  acted: boolean | undefined;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export interface RunStats {
  steps: number;
  batches: number;
  toolCalls: number;
  finalAnswersAllowed: number;
}

/**
 * Runs one scenario and throws (with what went wrong) on the first broken
 * rule. Adds its counts to `stats`.
 */
export async function runScenario(sc: Scenario, stats: RunStats): Promise<void> {
  const rand = prng(sc.seed);
  const violations: string[] = [];
  const fail = (msg: string) => violations.push(msg);

  // ---- the driver's timer queue (only the loop's magic time limit goes here) ----
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  const timers = new Map<number, () => void>();
  let timerSeq = 0;
  const fakeSetTimeout = ((fn: () => void, ms?: number, ...rest: unknown[]) => {
    if (ms !== TIMEOUT_MS) return realSetTimeout(fn, ms, ...rest);
    const id = -++timerSeq;
    timers.set(id, fn);
    return id;
  }) as unknown as typeof setTimeout;
  const fakeClearTimeout = ((id: unknown) => {
    if (typeof id === 'number' && id < 0) timers.delete(id);
    else realClearTimeout(id as Parameters<typeof clearTimeout>[0]);
  }) as typeof clearTimeout;
  globalThis.setTimeout = fakeSetTimeout;
  globalThis.clearTimeout = fakeClearTimeout;

  // ---- the model ----
  let T = 0; // logical time: one tick per recorded entry
  /** Logical time of the latest write that may have landed and is not waived; null when none. */
  let landedAt: number | null = null;
  let verified = true;
  /** Begin time of each call in flight on the session (loop and direct), by id; forgotten by reset. */
  const beganAt = new Map<string, number>();
  const running = new Map<number, Running>(); // loop tool calls started and not settled, by start number
  let started = 0;
  const everRun = new Map<string, Running>(); // by id, the last loop tool call with that id
  const direct = new Map<string, ToolKind>(); // direct lifecycle calls in flight
  let directSeq = 0;
  let clock = 1_000;

  const land = () => {
    landedAt = T;
    verified = false;
  };
  const readSucceeded = (began: number) => {
    if (landedAt !== null && began > landedAt) verified = true;
  };

  const entries: RecordingEntry[] = [];
  let recorderCalls = 0;
  const recorder = {
    record(entry: RecordingEntry) {
      entries.push(entry);
      T++;
      observe(entry);
      if (sc.throwingRecorder && ++recorderCalls % 3 === 0) throw Object.create(null);
    },
  };

  /** The model follows the session through its recording (what it did), judging with ground truth (what the tools did). */
  function observe(e: RecordingEntry) {
    const call = e.call;
    switch (call.type) {
      case 'beginToolCall':
        if (e.decision === 'allowed') {
          beganAt.set(call.id, T);
          begunKinds.set(call.id, call.kind);
          everRun.delete(call.id); // a tool run under this id before is not this call's
        }
        return;
      case 'onToolSuccess':
        if (call.kind === 'write') land();
        else if (call.kind === 'resolve' || call.kind === 'read') readSucceeded(T); // begun now, after any landing
        return;
      case 'canFinalAnswer':
        if (e.decision === 'allowed') {
          stats.finalAnswersAllowed++;
          if (landedAt !== null && !verified)
            fail(`a final answer was allowed after a write (landed at ${landedAt}) with no read begun after it`);
        }
        return;
      case 'endToolCall': {
        if (e.decision !== 'applied') return;
        const began = beganAt.get(call.id);
        beganAt.delete(call.id);
        if (began === undefined) return;
        const kind = begunKinds.get(call.id)!;
        // Ground truth for a loop call: what its tool did by now; for a direct call, what the test said.
        const tool = direct.has(call.id) ? undefined : everRun.get(call.id);
        let acted: boolean | 'maybe';
        if (tool) acted = tool.settled ? tool.acted! : 'maybe';
        else if (direct.has(call.id)) acted = call.ok ? true : call.unknown ? 'maybe' : false;
        else acted = false; // begun, never started (aborted before it ran)
        if (kind === 'write') {
          if (acted !== false || sc.failedWriteRequiresVerification) land();
          // A write whose own result carries verification evidence verified itself.
          // (The loop judged the result's evidence; hasVerificationEvidence has its own tests.)
          if (acted === true && call.verified === true) verified = true;
        } else if ((kind === 'resolve' || kind === 'read') && acted === true) {
          readSucceeded(began);
        }
        return;
      }
      case 'reset':
        landedAt = null;
        verified = true;
        beganAt.clear();
        direct.clear();
        return;
      case 'resetKeepProgress':
        // The semantics' waiver: VERIFYING goes to READING. Anywhere else nothing is waived.
        if (e.before === 'VERIFYING') {
          landedAt = null;
          verified = true;
        }
        return;
      default:
        return;
    }
  }
  const begunKinds = new Map<string, ToolKind>();

  const session = createSafetySession({
    now: () => clock,
    recorder,
    failedWriteRequiresVerification: sc.failedWriteRequiresVerification,
    onRecorderError: () => {
      throw new Error('the recorder error handler throws too');
    },
    onListenerError: () => {},
    onWarning: () => {},
  });
  let listened = 0;
  session.subscribe(() => {
    if (sc.throwingListener && ++listened % 2 === 0) throw new Error('listener');
  });

  const execute = (call: ToolCall, signal: AbortSignal): Promise<unknown> => {
    const spec = pendingSpecs.get(call.id)!;
    const kind = kindOf(call.name);
    stats.toolCalls++;
    if (kind === 'write') {
      for (const r of running.values())
        if (r.kind === 'write') fail(`write ${call.id} started while write ${r.id}'s tool still runs`);
      for (const [id, k] of direct)
        if (k === 'write') fail(`write ${call.id} started while direct write ${id} is in flight`);
    }
    if (spec.behaviour === 'throwSync') throw spec.value;
    return new Promise((resolve, reject) => {
      const r: Running = {
        key: -1,
        id: call.id,
        kind,
        behaviour: spec.behaviour,
        value: spec.value,
        settled: false,
        acted: undefined,
        resolve: (v) => {
          if (r.settled) return;
          r.settled = true;
          r.acted = true;
          running.delete(r.key);
          resolve(v);
        },
        reject: (e) => {
          if (r.settled) return;
          r.settled = true;
          r.acted = false;
          running.delete(r.key);
          reject(e);
        },
      };
      const key = started++;
      r.key = key;
      running.set(key, r);
      everRun.set(call.id, r);
      if (spec.behaviour === 'hangUntilAbort')
        signal.addEventListener('abort', () => r.reject(signal.reason), { once: true });
    });
  };
  const pendingSpecs = new Map<string, CallSpec>();

  let loop: ToolLoop | undefined;
  let controller: AbortController | undefined;
  let loopTimesOut = false;

  function directOp(op: DirectOp) {
    clock += rand(3) === 0 ? -5 : 7; // the clock wanders, backwards too
    switch (op.op) {
      case 'onToolSuccess':
        session.onToolSuccess(op.kind, `direct_${op.kind}`);
        return;
      case 'canExecuteTool':
        session.canExecuteTool(op.kind, `direct_${op.kind}`);
        return;
      case 'begin': {
        // A careful harness: no direct write while a loop write's tool still runs.
        if (op.kind === 'write' && [...running.values()].some((r) => r.kind === 'write')) return;
        const id = `x${directSeq++}`;
        if (session.beginToolCall({ id, kind: op.kind, tool: `direct_${op.kind}` }) === null) direct.set(id, op.kind);
        return;
      }
      case 'end': {
        const ids = [...direct.keys()];
        if (ids.length === 0) return;
        const id = ids[rand(ids.length)]!;
        const kind = direct.get(id)!;
        const ok = op.ok;
        session.endToolCall(!ok && op.unknown ? { id, ok: false, unknown: true } : { id, ok });
        direct.delete(id);
        void kind;
        return;
      }
      case 'completeVerification':
        session.completeVerification();
        return;
      case 'targetEstablished':
        session.targetEstablished();
        return;
      case 'resetKeepProgress':
        session.resetKeepProgress();
        return;
      case 'reset':
        session.reset();
        return;
      case 'canFinalAnswer':
        session.canFinalAnswer();
        return;
    }
  }

  /** Settles one running tool the way its behaviour says (hangs stay). */
  function settleOne(onlyLate = false): boolean {
    const candidates = [...running.values()].filter((r) =>
      onlyLate ? true : r.behaviour !== 'hang' && r.behaviour !== 'hangUntilAbort' && r.behaviour !== 'late',
    );
    if (candidates.length === 0) return false;
    const r = candidates[rand(candidates.length)]!;
    switch (r.behaviour) {
      case 'ok':
      case 'late':
      case 'hang':
        r.resolve(r.value);
        break;
      case 'evidence':
        r.resolve({ verification: { ok: true } });
        break;
      case 'reject':
      case 'hangUntilAbort':
        r.reject(r.value);
        break;
      case 'throwSync':
        break;
    }
    return true;
  }

  async function batch(step: Extract<Step, { type: 'batch' }>) {
    stats.batches++;
    if (step.newLoop || !loop || (controller?.signal.aborted ?? false)) {
      controller = step.signal ? new AbortController() : undefined;
      loopTimesOut = step.timeout;
      loop = createToolLoop({
        session,
        execute,
        classify,
        onWarning: () => undefined, // the scenario's classifier throws on purpose
        concurrency: step.concurrency,
        mustRunInOrder: () => step.inOrder,
        ...(step.timeout && { toolTimeoutMs: TIMEOUT_MS }),
        ...(controller && { signal: controller.signal }),
      });
    }
    if (step.startTurn) loop.startTurn();
    const calls: ToolCall[] = step.calls.map((c) => ({ id: c.id, name: c.name, args: argsOf(c) }));
    for (const c of step.calls) pendingSpecs.set(c.id, c);
    let settled = false;
    let rejected: unknown;
    const done = loop.runBatch(calls).then(
      () => (settled = true),
      (e: unknown) => {
        settled = true;
        rejected = e;
      },
    );
    const during = [...step.during];
    for (let i = 0; i < 400 && !settled; i++) {
      await tick();
      if (settled) break;
      const choice = rand(10);
      if (choice < 6) settleOne();
      else if (choice < 7 && during.length) directOp(during.shift()!);
      else if (choice < 8 && timers.size) {
        const [id, fn] = [...timers][rand(timers.size)]!;
        timers.delete(id);
        fn();
      } else if (choice < 9 && controller && rand(4) === 0) controller.abort(rand(2) ? Object.create(null) : undefined);
      else if (!settleOne() && i > 20) {
        // Nothing else will move it: fire the time limits, then abort.
        for (const [id, fn] of [...timers]) {
          timers.delete(id);
          fn();
        }
        if (controller && !controller.signal.aborted) controller.abort('stop');
      }
    }
    await tick();
    if (!settled) {
      const hangs = step.calls.some(
        (c) => c.behaviour === 'hang' || c.behaviour === 'late' || c.behaviour === 'hangUntilAbort',
      );
      const rescue = loopTimesOut || controller !== undefined;
      if (!hangs || rescue)
        fail(
          `runBatch did not settle: running ${JSON.stringify([...running.values()].map((r) => [r.id, r.kind, r.behaviour]))}, timers ${timers.size}, time limit ${loopTimesOut}, signal ${controller ? controller.signal.aborted : 'none'}, calls ${JSON.stringify(step.calls.map((c) => [c.id, c.name, c.behaviour]))}`,
        );
      // A hang with no time limit and no signal: the engineer's choice; the driver ends the tool.
      while (!settled && settleOne(true)) await tick();
      await done;
    }
    if (rejected !== undefined && !(rejected instanceof ToolLoopError)) {
      fail(`runBatch rejected with something other than a ToolLoopError: ${String(rejected)}`);
    }
  }

  try {
    for (const step of sc.steps) {
      stats.steps++;
      clock += 11;
      switch (step.type) {
        case 'batch':
          await batch(step);
          break;
        case 'direct':
          directOp(step.op);
          break;
        case 'finalAnswer':
          loop?.finalAnswer() ?? session.canFinalAnswer();
          break;
        case 'settleLate':
          settleOne(true);
          await tick();
          break;
      }
      checkAfterStep(session);
      if (violations.length) break;
    }
    // The tools still running finish; the recording replays the same.
    while (settleOne(true)) await tick();
    await tick();
    const replay = replayRecording(entries);
    if (replay.divergences.length)
      fail(`the recording replays with divergences: ${JSON.stringify(replay.divergences.slice(0, 2))}`);
  } finally {
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
  }
  if (violations.length) {
    const trail = entries
      .slice(-25)
      .map(
        (e) => `${e.seq} ${JSON.stringify(e.call)} ${e.decision} ${e.before}->${e.after} epoch ${e.context.writeEpoch}`,
      );
    throw new Error(`${violations.join('\n')}\nlast entries:\n${trail.join('\n')}`);
  }

  function checkAfterStep(s: SafetySession) {
    const writes = Object.values(s.context.calls).filter((c) => c.kind === 'write').length;
    if (writes > 1) fail(`${writes} writes in flight on the session`);
    if ((s.state === 'WRITING') !== (writes === 1)) fail(`state ${s.state} with ${writes} writes in flight`);
    try {
      restoreSafetySession(JSON.stringify(s.persist()), { now: () => clock });
    } catch (e) {
      fail(`the snapshot does not restore: ${(e as Error).message}`);
    }
  }
}

export { scenarioArb, seedFrom } from './loopScenario.js';
export type { Scenario } from './loopScenario.js';
