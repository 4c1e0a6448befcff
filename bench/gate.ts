import { createSafetySession } from '../src/safety/SafetySession.js';
import type { SafetySession } from '../src/safety/SafetySessionTypes.js';
import { initialReducerState, reduce, type ReducerState } from './baselineReducer.js';
import { makeFigure, ratioText, opsPerSecondPaired, type Figure } from './measure.js';

/*
 * One cycle of a realistic session through the lifecycle API: discover, write,
 * a second write blocked while the first is in flight, a read beside the
 * write, a verifying read, complete verification. 6 begin/end pairs.
 */
const PAIRS_PER_CYCLE = 6;

export interface GateSizes {
  /** Session cycles per run (6 lifecycle pairs, 4 compatible pairs each). */
  cycles: number;
  /** Measured runs of each side, interleaved. */
  runs: number;
}

/**
 * Part 1: gate decisions per second through SafetySession (lifecycle and
 * compatible APIs) against the hand-written reducer, interleaved run by run.
 */
export function gateFigures({ cycles = 10_000, runs = 7 }: Partial<GateSizes> = {}): Figure[] {
  const ops = cycles * PAIRS_PER_CYCLE;
  let t = 0;

  const lifecycle = () => {
    const s = createSafetySession({ now: () => t++ });
    lifecycleCycles(s, cycles);
  };
  // The same cycle on a session with target binding: every call carries a target.
  const bound = () => {
    const s = createSafetySession({ now: () => t++, targets: 'bind' });
    boundCycles(s, cycles);
  };
  const lifecycleReducer = () => {
    let s: ReducerState = initialReducerState;
    for (let i = 0; i < cycles; i++) {
      s = reduce(s, { type: 'BEGIN', id: 'r1', kind: 'resolve', tool: 'find_vm', at: t++ });
      s = reduce(s, { type: 'END', id: 'r1', ok: true, at: t++ });
      s = reduce(s, { type: 'BEGIN', id: 'w1', kind: 'write', tool: 'restart_vm', at: t++ });
      s = reduce(s, { type: 'BEGIN', id: 'w2', kind: 'write', tool: 'stop_vm', at: t++ });
      s = reduce(s, { type: 'BEGIN', id: 'r2', kind: 'read', tool: 'status', at: t++ });
      s = reduce(s, { type: 'END', id: 'w1', ok: true, at: t++ });
      s = reduce(s, { type: 'END', id: 'w2', ok: true, at: t++ });
      s = reduce(s, { type: 'END', id: 'r2', ok: true, at: t++ });
      s = reduce(s, { type: 'BEGIN', id: 'r3', kind: 'read', tool: 'status', at: t++ });
      s = reduce(s, { type: 'END', id: 'r3', ok: true, at: t++ });
      s = reduce(s, { type: 'COMPLETE' });
      s = reduce(s, { type: 'BEGIN', id: 'q', kind: 'user_input', tool: 'ask', at: t++ });
      s = reduce(s, { type: 'END', id: 'q', ok: true, at: t++ });
    }
    if (s.state !== 'READING') throw new Error('baseline reducer diverged');
  };
  const compat = () => {
    const s = createSafetySession({ now: () => t++ });
    for (let i = 0; i < cycles; i++) {
      s.canExecuteTool('resolve', 'find_vm');
      s.onToolSuccess('resolve', 'find_vm');
      s.canExecuteTool('write', 'restart_vm');
      s.onToolSuccess('write', 'restart_vm');
      s.canExecuteTool('write', 'stop_vm');
      s.canExecuteTool('read', 'status');
      s.onToolSuccess('read', 'status');
      s.completeVerification();
    }
  };
  const COMPAT_PAIRS = 4;
  const compatReducer = () => {
    let s: ReducerState = initialReducerState;
    for (let i = 0; i < cycles; i++) {
      s = reduce(s, { type: 'CHECK', kind: 'resolve', tool: 'find_vm' });
      s = reduce(s, { type: 'SUCCESS', kind: 'resolve', tool: 'find_vm', at: t++ });
      s = reduce(s, { type: 'CHECK', kind: 'write', tool: 'restart_vm' });
      s = reduce(s, { type: 'SUCCESS', kind: 'write', tool: 'restart_vm', at: t++ });
      s = reduce(s, { type: 'CHECK', kind: 'write', tool: 'stop_vm' });
      s = reduce(s, { type: 'CHECK', kind: 'read', tool: 'status' });
      s = reduce(s, { type: 'SUCCESS', kind: 'read', tool: 'status', at: t++ });
      s = reduce(s, { type: 'COMPLETE' });
    }
  };

  // The same cycle on the reference executor (`executor: 'xstate'`, for debugging): what compiling saves.
  const onXState = () => {
    const s = createSafetySession({ now: () => t++, executor: 'xstate' });
    lifecycleCycles(s, cycles);
  };

  const figure = (name: string, subject: number[], base: number[]): Figure =>
    makeFigure({
      suite: 'gate',
      name,
      unit: 'pairs/s',
      better: 'higher',
      runs: subject,
      baseline: {
        name: 'hand-written reducer, same semantics',
        runs: base,
        describe: (ratio) => ratioText(ratio, 'slower'),
      },
      target: { text: 'within 2× of the reducer', test: (_s, ratio) => ratio !== undefined && ratio <= 2 },
    });

  const [lc, lcBase] = opsPerSecondPaired(lifecycle, lifecycleReducer, ops, runs);
  const [cp, cpBase] = opsPerSecondPaired(compat, compatReducer, cycles * COMPAT_PAIRS, runs);
  const [xs, xsBase] = opsPerSecondPaired(onXState, lifecycle, ops, runs);
  const [bd, bdBase] = opsPerSecondPaired(bound, lifecycle, ops, runs);
  return [
    figure('beginToolCall + endToolCall', lc, lcBase),
    figure('canExecuteTool + onToolSuccess', cp, cpBase),
    makeFigure({
      suite: 'gate',
      name: 'beginToolCall + endToolCall, targets bound',
      unit: 'pairs/s',
      better: 'higher',
      runs: bd,
      baseline: {
        name: 'the same cycle without targets',
        runs: bdBase,
        describe: (ratio) => ratioText(ratio, 'slower'),
      },
      target: { text: 'within 1.5× of the unbound session', test: (_s, ratio) => ratio !== undefined && ratio <= 1.5 },
    }),
    makeFigure({
      suite: 'gate',
      name: 'beginToolCall + endToolCall on the XState executor',
      unit: 'pairs/s',
      better: 'higher',
      runs: xs,
      baseline: {
        name: 'the same cycle on the compiled table (the default)',
        runs: xsBase,
        describe: (ratio) => ratioText(ratio, 'slower'),
      },
      note: "executor: 'xstate', the reference the table is proven equal to; for debugging, no target",
    }),
  ];
}

/**
 * The lifecycle cycle every gate figure times: discovery, a write with a second
 * write and a read beside it (blocked / not verifying), a verifying read,
 * completion, and a question.
 */
export function lifecycleCycles(s: SafetySession, cycles: number): void {
  for (let i = 0; i < cycles; i++) {
    s.beginToolCall({ id: 'r1', kind: 'resolve', tool: 'find_vm' });
    s.endToolCall({ id: 'r1', ok: true });
    s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
    s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' });
    s.beginToolCall({ id: 'r2', kind: 'read', tool: 'status' });
    s.endToolCall({ id: 'w1', ok: true });
    s.endToolCall({ id: 'w2', ok: true });
    s.endToolCall({ id: 'r2', ok: true });
    s.beginToolCall({ id: 'r3', kind: 'read', tool: 'status' });
    s.endToolCall({ id: 'r3', ok: true });
    s.completeVerification();
    s.beginToolCall({ id: 'q', kind: 'user_input', tool: 'ask' });
    s.endToolCall({ id: 'q', ok: true });
  }
}

/** {@link lifecycleCycles} with targets on every call, for a session with `targets: 'bind'`. */
function boundCycles(s: SafetySession, cycles: number): void {
  const vm = ['vm:1'];
  for (let i = 0; i < cycles; i++) {
    s.beginToolCall({ id: 'r1', kind: 'resolve', tool: 'find_vm', targets: vm });
    s.endToolCall({ id: 'r1', ok: true });
    s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm', targets: vm });
    s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm', targets: vm });
    s.beginToolCall({ id: 'r2', kind: 'read', tool: 'status', targets: vm });
    s.endToolCall({ id: 'w1', ok: true });
    s.endToolCall({ id: 'w2', ok: true });
    s.endToolCall({ id: 'r2', ok: true });
    s.beginToolCall({ id: 'r3', kind: 'read', tool: 'status', targets: vm });
    s.endToolCall({ id: 'r3', ok: true });
    s.completeVerification();
    s.beginToolCall({ id: 'q', kind: 'user_input', tool: 'ask' });
    s.endToolCall({ id: 'q', ok: true });
  }
  if (s.state !== 'READING') throw new Error('the bound cycle did not end in READING');
}
