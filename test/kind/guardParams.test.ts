import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  createKindSession,
  createMachineOfKind,
  defineMachineKind,
  parseMachineDefinitionOfKind,
} from 'assistant-safety';
import { Counter, countingCoverage, definitionError } from './counterMachine.js';

/*
 * A guard may read params the machine JSON gives it (`{ "type": "atLeast", "params": { "n": 3 } }`),
 * checked against the guard's schema when the machine loads, as an action's are. One guard then
 * serves several transitions with different thresholds, on both executors and in the coverage.
 */

const CounterEvent = z.discriminatedUnion('type', [z.object({ type: z.literal('INC') })]);
type CounterEvent = z.infer<typeof CounterEvent>;

const kind = defineMachineKind<Counter, CounterEvent>({
  name: 'threshold',
  context: Counter,
  events: CounterEvent,
  guards: {
    atLeast: { params: z.object({ n: z.int() }), test: (c, _e, p: { n: number }) => c.n >= p.n },
    isEven: (c) => c.n % 2 === 0,
  },
  actions: { inc: { run: (c) => ({ n: c.n + 1 }) } },
  initialContext: () => ({ n: 0 }),
  recorded: (c) => ({ n: c.n }),
  snapshot: { version: 1, migrations: {} },
});

const json = () => ({
  id: 'threshold',
  description: 'Counts through two thresholds.',
  initial: 'LOW',
  guards: {
    atLeast: { description: 'The count is at least n.' },
    isEven: { description: 'The count is even.' },
  },
  actions: { inc: { description: 'Add one.' } },
  states: {
    LOW: {
      description: 'Below two.',
      on: {
        INC: [
          { guard: { type: 'atLeast', params: { n: 2 } }, target: 'MID', description: 'Two reached.' },
          { actions: ['inc'], description: 'Count.' },
        ],
      },
    },
    MID: {
      description: 'Below five.',
      on: {
        INC: [
          { guard: { type: 'atLeast', params: { n: 5 } }, target: 'HIGH', description: 'Five reached.' },
          { actions: ['inc'], description: 'Count.' },
        ],
      },
    },
    HIGH: { description: 'Five or more.' },
  },
});

describe('guards with params from the machine JSON', () => {
  const def = parseMachineDefinitionOfKind(json(), kind);
  const machine = createMachineOfKind(kind, json());

  it('should apply each transition its own params, on the compiled table and on XState', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), (steps) => {
        for (const executor of ['compiled', 'xstate'] as const) {
          const session = createKindSession<Counter, CounterEvent>(kind, machine, undefined, { executor });
          for (let i = 0; i < steps; i++) session.send({ type: 'INC' });
          // LOW counts 0..2, one INC moves to MID; MID counts 2..5, one INC moves to HIGH.
          const expected = steps <= 2 ? 'LOW' : steps <= 6 ? 'MID' : 'HIGH';
          expect([executor, session.state]).toEqual([executor, expected]);
          expect(session.context.n).toBe(Math.min(steps, 2) + Math.max(0, Math.min(steps - 3, 3)));
        }
      }),
    );
  });

  it('should cover both outcomes of each parametrised guard', () => {
    const coverage = countingCoverage(machine, def, kind, ['INC']);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(coverage.guardOutcomes.total).toBe(4);
  });

  it('should refuse missing or bad params, params to a guard without any, and a derived guard over one', () => {
    const bad = json() as unknown as {
      guards: Record<string, Record<string, unknown>>;
      states: Record<string, { on: Record<string, { guard?: unknown }[]> }>;
    };
    bad.states['LOW']!.on['INC']![0]!.guard = 'atLeast';
    bad.states['MID']!.on['INC']![0]!.guard = { type: 'atLeast', params: { n: 'five' } };
    bad.states['MID']!.on['INC']![1]!.guard = { type: 'isEven', params: { n: 1 } };
    bad.guards['notThere'] = { description: 'x', not: 'atLeast' };
    const error = definitionError(bad, kind);
    expect(error.issues.map((i) => [i.path.join('.'), i.code])).toEqual(
      expect.arrayContaining([
        ['states.LOW.on.INC.0.guard.params', 'invalid_params'],
        ['states.MID.on.INC.0.guard.params.n', 'invalid_params'],
        ['states.MID.on.INC.1.guard.params', 'invalid_params'],
        ['guards.notThere.not', 'invalid_params'],
      ]),
    );
    expect(error.message).toMatch(/guard "isEven" takes no params/);
    expect(error.message).toMatch(/guard "atLeast" takes params, which a derived guard cannot give/);
  });
});
