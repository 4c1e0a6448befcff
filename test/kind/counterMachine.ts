import { expect } from 'vitest';
import * as z from 'zod/mini';
import type { AnyStateMachine } from 'xstate';
import {
  createMachineOfKind,
  defineMachineKind,
  MachineDefinitionError,
  parseMachineDefinitionOfKind,
  type AnyMachineKind,
  type MachineDefinition,
} from 'assistant-safety';
import { CoverageTracker, exploreKind, type Coverage } from 'assistant-safety/testing';

/** The context of the small counting machines the guard tests build: a count. */
export const Counter = z.object({ n: z.number() });
export type Counter = z.infer<typeof Counter>;

/** Every configuration of a counting machine (state and count), each event type tried in each, through the coverage tracker. */
export function countingCoverage(
  machine: AnyStateMachine,
  def: MachineDefinition,
  kind: AnyMachineKind,
  eventTypes: readonly string[],
): Coverage {
  const graph = exploreKind(machine, {
    inputs: [undefined],
    key: (s) => `${String(s.value)} ${(s.context as Counter).n}`,
    moves: () => eventTypes.map((type) => ({ label: type, event: { type } })),
  });
  const tracker = new CoverageTracker(def, kind);
  for (const edge of graph.edges)
    for (const step of edge.steps)
      tracker.step(String(step.before.value), step.before.context as Counter, step.event, String(step.after.value));
  return tracker.report();
}

/** The error the loader throws for a machine JSON of the kind. */
export function definitionError(json: unknown, kind: AnyMachineKind): MachineDefinitionError {
  try {
    parseMachineDefinitionOfKind(json, kind);
  } catch (e) {
    expect(e).toBeInstanceOf(MachineDefinitionError);
    return e as MachineDefinitionError;
  }
  throw new Error('the machine was accepted');
}

/** A one-state kind that counts ADD events (its snapshot at version 2: version 1 called the count `count`), for the session tests. */
export type Tally = Counter;
export const TallyEvent = z.discriminatedUnion('type', [z.object({ type: z.literal('ADD') })]);
export type TallyEvent = z.infer<typeof TallyEvent>;

export const tallyKind = defineMachineKind<Tally, TallyEvent>({
  name: 'tally',
  context: Counter,
  events: TallyEvent,
  guards: {},
  actions: { add: { run: (c) => ({ n: c.n + 1 }) } },
  initialContext: () => ({ n: 0 }),
  recorded: (c) => ({ n: c.n }),
  // Version 1 called the count `count`.
  snapshot: {
    version: 2,
    migrations: {
      1: (s) => ({ ...s, version: 2, context: { n: (s.context as { count: number }).count } }),
    },
  },
});

export const tallyMachine = createMachineOfKind(tallyKind, {
  id: 'tally',
  description: 'Counts.',
  initial: 'COUNTING',
  guards: {},
  actions: { add: { description: 'Add one.' } },
  states: { COUNTING: { description: 'Counting.', on: { ADD: [{ actions: ['add'], description: 'Add.' }] } } },
});
