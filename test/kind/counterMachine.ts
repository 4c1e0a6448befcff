import { expect } from 'vitest';
import * as z from 'zod/mini';
import type { AnyStateMachine } from 'xstate';
import {
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
