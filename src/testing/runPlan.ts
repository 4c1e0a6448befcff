import { getNextSnapshot } from 'xstate';
import type { SafetyMachine } from '../safety/createSafetyMachine.js';
import type { SafetyConfig } from '../safety/SafetyContext.js';
import { createSafetySession } from '../safety/SafetySession.js';
import type { SafetySession, SafetySessionOptions } from '../safety/SafetySessionTypes.js';
import { safetyMachine } from '../safety/safetyMachine.js';
import { applyMove, moveLabel, moveToEvent, type Move } from './Move.js';
import type { PathPlan, StepExpectation } from './paths.js';
import { stepOf, type Step, type StepDecision } from './Step.js';

/** One step as the session showed it. */
export interface ObservedStep {
  call: string;
  /** The step in machine terms (before, event, after, decision), for monitors and coverage. */
  step: Step;
  /**
   * Every machine step the call made: `step`, then, in shadow mode for a call the gate would
   * have blocked, the `RUN_UNGATED` step that lets it run.
   */
  steps: Step[];
  actual: StepExpectation;
}

export interface PlanResult {
  plan: PathPlan;
  ok: boolean;
  /** The first mismatch between the graph's prediction and the session, in words. */
  failure?: string;
  /** Index of the failing step. */
  failedStep?: number;
  observed: ObservedStep[];
  ms: number;
}

/** A deterministic clock: 1 s per reading from a fixed epoch, so recoveries never expire mid-path. */
function steppingClock(start = 1_700_000_000_000, step = 1000): () => number {
  let t = start - step;
  return () => (t += step);
}

/**
 * The session options that give a session this config: the options are named after the config's
 * settings, so the config is its own options.
 *
 * @example
 * createSafetySession({ ...sessionOptionsOf({ ...DEFAULT_CONFIG, targets: 'bind' }), now: clock });
 */
export function sessionOptionsOf(config: SafetyConfig): SafetySessionOptions {
  return { ...config };
}

/** A fresh session under test, with a deterministic clock. */
function sessionUnderTest(config: SafetyConfig, machine?: SafetyMachine): SafetySession {
  return createSafetySession({
    id: 'path-under-test',
    now: steppingClock(),
    // A path drives a bare session on purpose: the advice for callers that forget a step is not for it.
    onWarning: () => {},
    ...sessionOptionsOf(config),
    ...(machine && { machine }),
  });
}

/**
 * Applies one move to the session and observes it as a machine step. The
 * event is the one the session sends for the call (same call id, same kind).
 */
export function observeMove(
  session: SafetySession,
  move: Move,
  at = 0,
  machine: SafetyMachine = safetyMachine,
): ObservedStep {
  const before = { value: session.state, context: session.context };
  // `at`: the clock reading the session will stamp the event with, for invariants that read time.
  const event = moveToEvent(move, session.context, at);
  if (!event) throw new Error(`no call in flight matches "${moveLabel(move)}"`);
  const result = applyMove(session, move);
  const after = { value: session.state, context: session.context };
  const decision: StepDecision = result.blocked === undefined ? null : result.blocked === null ? 'allowed' : 'blocked';
  const actual: StepExpectation = {
    state: session.state,
    wroteThisEpisode: session.wroteThisEpisode,
    readAfterWrite: session.readAfterWrite,
    decision,
    ...(result.blocked && { reasonCode: result.blocked.reasonCode }),
    ...(result.wouldBlock !== undefined && { wouldBlock: result.wouldBlock }),
  };
  // In machine terms a would-be block is a block (the session then lets the call run).
  const machineDecision: StepDecision = result.wouldBlock !== undefined ? 'blocked' : decision;
  if (result.wouldBlock === undefined || event.type !== 'BEGIN_CALL') {
    const step = { ...stepOf(before, event, after), decision: machineDecision };
    return { call: result.call, step, steps: [step], actual };
  }
  // Shadow mode: the session sent the block, then RUN_UNGATED. The snapshot between them, from the machine itself.
  const blocked = getNextSnapshot(
    machine,
    machine.resolveState({ value: before.value as never, context: before.context }),
    event,
  );
  const mid = { value: blocked.value, context: blocked.context };
  const step = { ...stepOf(before, event, mid), decision: machineDecision };
  const run = stepOf(mid, { ...event, type: 'RUN_UNGATED' }, after);
  return { call: result.call, step, steps: [step, run], actual };
}

const FIELDS = ['state', 'decision', 'reasonCode', 'wouldBlock', 'wroteThisEpisode', 'readAfterWrite'] as const;

/**
 * Runs a path plan against a real `SafetySession` (the system under test)
 * and compares each step's state, flags, decision and reason code with what
 * the graph predicts.
 *
 * @example
 * const result = runPlan(plan);
 * if (!result.ok) console.error(result.failure);
 */
export function runPlan(plan: PathPlan, options: { machine?: SafetyMachine } = {}): PlanResult {
  const started = performance.now();
  const session = sessionUnderTest(plan.config, options.machine);
  const observed: ObservedStep[] = [];
  for (let i = 0; i < plan.steps.length; i++) {
    const { move, expect, label } = plan.steps[i]!;
    let step: ObservedStep;
    try {
      step = observeMove(session, move, 0, options.machine);
    } catch (e) {
      return fail(`step ${i + 1} (${label}) threw: ${(e as Error).message}`, i);
    }
    observed.push(step);
    for (const field of FIELDS) {
      if (expect[field] !== step.actual[field]) {
        return fail(
          `step ${i + 1} (${label}, ${step.call}): ${field} expected ${JSON.stringify(expect[field])}, got ${JSON.stringify(step.actual[field])}`,
          i,
        );
      }
    }
  }
  return { plan, ok: true, observed, ms: performance.now() - started };

  function fail(failure: string, failedStep: number): PlanResult {
    return { plan, ok: false, failure, failedStep, observed, ms: performance.now() - started };
  }
}
