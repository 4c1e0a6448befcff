import fc from 'fast-check';
import type { ToolKind } from '../../src/index.js';

/*
 * The scenarios of the tool loop's model-based test (test/gate/loopModel.ts runs them): the tools and
 * how the model takes them, the arbitraries of steps and whole runs, and the driver's seeded choices.
 */

/** The magic per-call time limit: the driver's own timer queue takes these, so timeouts fire when it says. */
export const TIMEOUT_MS = 987_654;

const TOOLS: Record<string, ToolKind | 'throws' | 'bogus'> = {
  find_vm: 'resolve',
  get_logs: 'read',
  get_status: 'read',
  restart_vm: 'write',
  stop_vm: 'write',
  ask_user: 'user_input',
  weird: 'throws', // the classifier throws: the call is a write
};
const NAMES = Object.keys(TOOLS);
/** What the model takes a call to be: a classifier that throws fails closed as write. */
export const kindOf = (name: string): ToolKind => {
  const k = TOOLS[name];
  return k === undefined || k === 'throws' || k === 'bogus' ? 'write' : k;
};
export const classify = (name: string): ToolKind => {
  if (TOOLS[name] === 'throws') throw Object.create(null);
  return kindOf(name);
};

export type Behaviour = 'ok' | 'evidence' | 'reject' | 'throwSync' | 'hang' | 'hangUntilAbort' | 'late';

export interface CallSpec {
  id: string;
  name: string;
  args: 'plain' | 'proxy' | 'getter' | 'deep' | 'anything';
  behaviour: Behaviour;
  value: unknown;
}

export type DirectOp =
  | { op: 'onToolSuccess'; kind: ToolKind }
  | { op: 'canExecuteTool'; kind: ToolKind }
  | { op: 'begin'; kind: ToolKind }
  | { op: 'end'; ok: boolean; unknown: boolean }
  | { op: 'completeVerification' }
  | { op: 'targetEstablished' }
  | { op: 'resetKeepProgress' }
  | { op: 'reset' }
  | { op: 'canFinalAnswer' };

export type Step =
  | {
      type: 'batch';
      calls: CallSpec[];
      timeout: boolean;
      signal: boolean;
      inOrder: boolean;
      concurrency: number;
      newLoop: boolean;
      startTurn: boolean;
      during: DirectOp[];
    }
  | { type: 'direct'; op: DirectOp }
  | { type: 'finalAnswer' }
  | { type: 'settleLate' };

export interface Scenario {
  seed: number;
  failedWriteRequiresVerification: boolean;
  throwingRecorder: boolean;
  throwingListener: boolean;
  steps: Step[];
}

const kindArb = fc.constantFrom<ToolKind>('resolve', 'read', 'write', 'user_input');
const directArb: fc.Arbitrary<DirectOp> = fc.oneof(
  { weight: 3, arbitrary: kindArb.map((kind) => ({ op: 'onToolSuccess' as const, kind })) },
  { weight: 1, arbitrary: kindArb.map((kind) => ({ op: 'canExecuteTool' as const, kind })) },
  { weight: 3, arbitrary: kindArb.map((kind) => ({ op: 'begin' as const, kind })) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('end' as const), ok: fc.boolean(), unknown: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ op: 'completeVerification' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'targetEstablished' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'resetKeepProgress' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'reset' as const }) },
  { weight: 2, arbitrary: fc.constant({ op: 'canFinalAnswer' as const }) },
);

const HOSTILE_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'w', 'r'];

const callArb: fc.Arbitrary<CallSpec> = fc.record({
  id: fc.oneof(
    { weight: 4, arbitrary: fc.nat(30).map((n) => `c${n}`) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_IDS) },
  ),
  name: fc.oneof({ weight: 20, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: fc.constant('') }),
  args: fc.oneof(
    { weight: 12, arbitrary: fc.constant('plain' as const) },
    { weight: 1, arbitrary: fc.constantFrom('proxy' as const, 'getter' as const, 'deep' as const) },
    { weight: 2, arbitrary: fc.constant('anything' as const) },
  ),
  behaviour: fc.constantFrom<Behaviour>(
    'ok',
    'ok',
    'ok',
    'evidence',
    'reject',
    'throwSync',
    'hang',
    'hangUntilAbort',
    'late',
  ),
  value: fc.oneof(fc.anything(), fc.constantFrom<unknown>(Object.create(null), undefined, null)),
});

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant('batch' as const),
      calls: fc.array(callArb, { minLength: 1, maxLength: 4 }),
      timeout: fc.boolean(),
      signal: fc.boolean(),
      inOrder: fc.boolean(),
      concurrency: fc.integer({ min: 1, max: 4 }),
      newLoop: fc.boolean(),
      startTurn: fc.boolean(),
      during: fc.array(directArb, { maxLength: 2 }),
    }),
  },
  { weight: 4, arbitrary: directArb.map((op) => ({ type: 'direct' as const, op })) },
  { weight: 2, arbitrary: fc.constant({ type: 'finalAnswer' as const }) },
  { weight: 1, arbitrary: fc.constant({ type: 'settleLate' as const }) },
);

/** A whole run: its seed drives the driver's choices, the steps are what happens. */
export const scenarioArb = (maxSteps: number): fc.Arbitrary<Scenario> =>
  fc.record({
    seed: fc.integer(),
    failedWriteRequiresVerification: fc.boolean(),
    throwingRecorder: fc.boolean(),
    throwingListener: fc.boolean(),
    steps: fc.array(stepArb, { minLength: Math.min(20, maxSteps), maxLength: maxSteps }),
  });

/** mulberry32: the driver's deterministic choices. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % 4294967296) % n;
  };
}

export const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

export function argsOf(spec: CallSpec): unknown {
  switch (spec.args) {
    case 'plain':
      return { target: 'web-01' };
    case 'anything':
      return spec.value;
    case 'proxy':
      return new Proxy(
        {},
        {
          ownKeys() {
            throw new Error('trap');
          },
          get() {
            throw new Error('trap');
          },
          getOwnPropertyDescriptor() {
            throw new Error('trap');
          },
        },
      );
    case 'getter':
      return Object.defineProperty({}, 'x', {
        enumerable: true,
        get() {
          throw Object.create(null);
        },
      });
    case 'deep': {
      let v: unknown = 0;
      for (let i = 0; i < 20_000; i++) v = { v };
      return v;
    }
  }
}

/** Reads the seed to replay from `env` (a number), or picks one. */
export function seedFrom(value: string | undefined): number {
  if (value !== undefined && value !== '') {
    const n = Number(value);
    if (!Number.isInteger(n)) throw new Error(`GATE_MODEL_SEED must be an integer, got ${JSON.stringify(value)}`);
    return n;
  }
  return (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
}
