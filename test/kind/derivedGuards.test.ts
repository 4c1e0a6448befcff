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
import { generateMutants } from 'assistant-safety/testing';

/*
 * A machine's JSON may derive a guard from others with one combinator (`not`, `and`, `or`) and use
 * it by name like any other. The compiled table, XState and the coverage tracker decide it alike,
 * and the loader names what is wrong with a bad one.
 */

const CounterEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('INC') }),
  z.object({ type: z.literal('RESET') }),
]);
type CounterEvent = z.infer<typeof CounterEvent>;

const counterKind = defineMachineKind<Counter, CounterEvent>({
  name: 'counter',
  context: Counter,
  events: CounterEvent,
  guards: { isEven: (c) => c.n % 2 === 0, isBig: (c) => c.n >= 4 },
  actions: {
    inc: { run: (c) => ({ n: c.n + 1 }) },
    zero: { run: () => ({ n: 0 }) },
  },
  initialContext: () => ({ n: 0 }),
  recorded: (c) => ({ n: c.n }),
  snapshot: { version: 1, migrations: {} },
});

const json = () => ({
  id: 'counter',
  description: 'Counts up to a limit.',
  initial: 'COUNTING',
  guards: {
    isEven: { description: 'The count is even.' },
    isBig: { description: 'The count reached four.' },
    isOdd: { description: 'The count is odd.', not: 'isEven' },
    isBigEven: { description: 'Even and big.', and: ['isEven', 'isBig'] },
    isOddOrBig: { description: 'Odd, or big.', or: ['isOdd', 'isBig'] },
  },
  actions: {
    inc: { description: 'Add one.' },
    zero: { description: 'Back to zero.' },
  },
  states: {
    COUNTING: {
      description: 'Counting.',
      on: {
        INC: [
          { guard: 'isBigEven', target: 'DONE', description: 'Even and big: done.' },
          { guard: 'isOdd', actions: ['inc'], description: 'Odd: one more.' },
          { actions: ['inc'], description: 'Even: one more too (another transition, for the guard to choose).' },
        ],
        RESET: [{ guard: 'isOddOrBig', actions: ['zero'], description: 'Odd or big: back to zero.' }],
      },
    },
    DONE: { description: 'Done.', on: { RESET: [{ target: 'COUNTING', actions: ['zero'], description: 'Again.' }] } },
  },
});

describe('guards a machine derives with not, and, or', () => {
  const def = parseMachineDefinitionOfKind(json(), counterKind);
  const machine = createMachineOfKind(counterKind, json());

  it('should decide alike on the compiled table and on XState, as the combinators say', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<CounterEvent>({ type: 'INC' }, { type: 'RESET' }), { maxLength: 20 }),
        (events) => {
          const compiled = createKindSession<Counter, CounterEvent>(counterKind, machine, undefined, {
            executor: 'compiled',
          });
          const xstate = createKindSession<Counter, CounterEvent>(counterKind, machine, undefined, {
            executor: 'xstate',
          });
          let expected = { state: 'COUNTING', n: 0 };
          for (const event of events) {
            const { n } = expected;
            const even = n % 2 === 0;
            if (expected.state === 'DONE') expected = event.type === 'RESET' ? { state: 'COUNTING', n: 0 } : expected;
            else if (event.type === 'INC')
              expected = even && n >= 4 ? { state: 'DONE', n } : { state: 'COUNTING', n: n + 1 };
            else if (!even || n >= 4) expected = { state: 'COUNTING', n: 0 };
            for (const session of [compiled, xstate]) session.send(event);
            expect([compiled.state, compiled.context.n]).toEqual([expected.state, expected.n]);
            expect([xstate.state, xstate.context.n]).toEqual([expected.state, expected.n]);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('should be covered with both outcomes of each derived guard, and mutated like any guard', () => {
    const coverage = countingCoverage(machine, def, counterKind, ['INC', 'RESET']);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(generateMutants(def).map((m) => m.id)).toContain('swap-guard COUNTING.INC[1] isOdd→isEven');
  });

  it('should refuse an unknown operand, a cycle, two combinators and a kind guard redefined, naming each', () => {
    const bad = json() as { guards: Record<string, Record<string, unknown>> };
    bad.guards['isOdd'] = { description: 'x', not: 'isOdds' };
    bad.guards['loop'] = { description: 'x', and: ['loop', 'isBig'] };
    bad.guards['both'] = { description: 'x', not: 'isBig', or: ['isBig', 'isEven'] };
    bad.guards['isEven'] = { description: 'x', not: 'isBig' };
    const error = definitionError(bad, counterKind);
    expect(error.issues.map((i) => [i.path.join('.'), i.message])).toEqual(
      expect.arrayContaining([
        ['guards.isOdd.not', 'unknown guard "isOdds" (not in the guard catalogue)'],
        ['guards.loop', '"loop" is derived from itself'],
        ['guards.both', 'a derived guard has one combinator, not not and or'],
        ['guards.isEven', '"isEven" is implemented by the kind: a derived guard needs a name of its own'],
      ]),
    );
  });
});
