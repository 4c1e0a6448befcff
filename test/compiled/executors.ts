import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import {
  createSafetySession,
  type CallOutcome,
  type RecordedCall,
  type SafetyMachine,
  type SafetySession,
} from 'assistant-safety';
import type { EXPLORED_CONFIGS } from 'assistant-safety/testing';

type SafetyConfig = (typeof EXPLORED_CONFIGS)[number];

/*
 * The two executors side by side: the same calls through a session on the compiled table and a
 * session on XState, compared after every call (outcome, block details, state, whole context).
 */

const ids = ['c1', 'c2', 'c3', 'c4'];
const tools = ['find_vm', 'get_vm', 'restart_vm', 'ask_user'];
const targets = fc.option(fc.subarray(['vm:1', 'vm:2', 'file:/a'], { minLength: 1 }), { nil: undefined });
const kind = fc.constantFrom('resolve' as const, 'read' as const, 'write' as const, 'user_input' as const);
const tool = fc.constantFrom(...tools);
const id = fc.constantFrom(...ids);
const strip = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** Any call of the recording vocabulary a session takes, over a small world so that calls meet. */
export const sessionCall: fc.Arbitrary<RecordedCall> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        id,
        kind,
        tool,
        targets,
        stateOnly: fc.option(fc.boolean(), { nil: undefined }),
        trust: fc.option(fc.constant('untrusted' as const), { nil: undefined }),
      })
      .map((c) => strip({ type: 'beginToolCall' as const, ...c })),
  },
  {
    weight: 6,
    arbitrary: fc
      .record({
        id,
        ok: fc.boolean(),
        verified: fc.option(fc.boolean(), { nil: undefined }),
        unknown: fc.option(fc.constant(true), { nil: undefined }),
        discovered: targets,
      })
      .map((c) => strip({ type: 'endToolCall' as const, ...c, ...(c.unknown && { ok: false }) })),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind, tool, targets }).map((c) => strip({ type: 'canExecuteTool' as const, ...c })),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind, tool, targets }).map((c) => strip({ type: 'onToolSuccess' as const, ...c })),
  },
  { weight: 2, arbitrary: fc.constant({ type: 'canFinalAnswer' as const }) },
  { weight: 1, arbitrary: fc.constant({ type: 'completeVerification' as const }) },
  { weight: 1, arbitrary: fc.constant({ type: 'reset' as const }) },
  { weight: 1, arbitrary: fc.constant({ type: 'resetKeepProgress' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ tool }).map((c) => ({ type: 'trackPendingRecovery' as const, errorCode: 'E', ...c })),
  },
  { weight: 1, arbitrary: fc.record({ tool }).map((c) => ({ type: 'checkRecoverySuccess' as const, ...c })) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        targets,
        source: fc.option(fc.constantFrom('user' as const, 'human' as const, 'tool' as const), { nil: undefined }),
      })
      .map((c) => strip({ type: 'targetEstablished' as const, ...c })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ id, kind, tool, code: fc.constantFrom('LOOK_BEFORE_ASKING' as const, 'LOOP_DETECTED' as const) })
      .map((c) => ({ type: 'recordLoopBlock' as const, ...c })),
  },
  {
    weight: 1,
    arbitrary: fc.record({ evidence: fc.constantFrom('target' as const, 'verification' as const), targets }).map((c) =>
      strip({
        type: 'attest' as const,
        reasonCode: c.evidence === 'target' ? ('TARGET_NOT_VALIDATED' as const) : ('UNVERIFIED_WRITE' as const),
        evidence: c.evidence,
        targets: c.targets,
        by: 'ops@example.com',
      }),
    ),
  },
);

/** One call with the clock moving before it (0, a little, or past the recovery TTL). */
export const timedCall = fc.record({
  gap: fc.oneof(fc.constant(0), fc.nat({ max: 1000 }), fc.nat({ max: 700_000 })),
  call: sessionCall,
});

/** The options a session of a config is created with. */
export function optionsOf(config: SafetyConfig) {
  return {
    recoveryTtlMs: config.recoveryTtlMs,
    failedWriteRequiresVerification: config.failedWriteRequiresVerification,
    ...(config.targets && { targets: config.targets }),
    ...(config.mode && { mode: config.mode }),
    ...(config.profile && { profile: config.profile }),
  };
}

/** What a call returned, as comparable data: the outcome with the block's own fields, or the error thrown. */
function observe(session: SafetySession, call: RecordedCall): unknown {
  let outcome: CallOutcome;
  try {
    outcome = session.perform(call);
  } catch (e) {
    return { threw: (e as Error).message };
  }
  const { blocked, ...rest } = outcome;
  return blocked ? { ...rest, blocked: { ...blocked, envelope: blocked.toJSON() } } : rest;
}

/** A pair of sessions, one per executor, sharing a clock. */
export function sessionPair(config: SafetyConfig, machine?: SafetyMachine) {
  let now = 1_700_000_000_000;
  const common = {
    id: 'pair',
    now: () => now,
    onWarning: () => {},
    ...optionsOf(config),
    ...(machine && { machine }),
  };
  const compiled = createSafetySession({ ...common, executor: 'compiled' });
  const xstate = createSafetySession({ ...common, executor: 'xstate' });
  return {
    compiled,
    xstate,
    /** Applies one call to both and names the first difference, or returns null. */
    step(gap: number, call: RecordedCall): string | null {
      now += gap;
      const a = observe(compiled, call);
      const b = observe(xstate, call);
      if (!isDeepStrictEqual(a, b))
        return `outcome of ${JSON.stringify(call)}: compiled ${JSON.stringify(a)}, xstate ${JSON.stringify(b)}`;
      if (compiled.state !== xstate.state)
        return `state after ${JSON.stringify(call)}: compiled ${compiled.state}, xstate ${xstate.state}`;
      if (!isDeepStrictEqual(compiled.context, xstate.context))
        return `context after ${JSON.stringify(call)}: compiled ${JSON.stringify(compiled.context)}, xstate ${JSON.stringify(xstate.context)}`;
      return null;
    },
  };
}
