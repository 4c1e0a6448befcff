import { describe, expect, it } from 'vitest';
import { getNextTransitions, type AnyStateMachine, type AnyTransitionDefinition } from 'xstate';
import {
  definitionOf,
  indexMachine,
  safetyMachine,
  safetyMachineKind,
  transitionId,
  type AnyMachineKind,
} from 'assistant-safety';
import { patrolKindTesting, patrolMachine } from 'assistant-safety/patrol';
import { exploreKind, exploreMachine, resolveTransition, type KindStep } from 'assistant-safety/testing';

/*
 * The machine index's choice of transition (`resolveTransition`: the state's
 * own transitions for the event in order, then the root's, the first whose
 * guard passes) is XState's own: on every step of every explored edge, the
 * candidates are the ones XState's `getNextTransitions` lists for the event,
 * in its order, and the transition taken is the one XState's
 * `getTransitionData` selects, both named by the index's id.
 */

/** The index id of one of XState's transition definitions. */
function idOf(t: AnyTransitionDefinition): string {
  const source = t.source.path.length === 0 ? null : t.source.path.join('.');
  return transitionId(source, t.eventType, t.source.transitions.get(t.eventType)!.indexOf(t));
}

function compare(machine: AnyStateMachine, kind: AnyMachineKind, steps: Iterable<KindStep<unknown, { type: string }>>) {
  const def = definitionOf(machine)!;
  const index = indexMachine(def);
  let checked = 0;
  let taken = 0;
  for (const step of steps) {
    const state = String(step.before.value);
    const where = `${step.event.type} in ${state}`;
    const xstateCandidates = getNextTransitions(step.before as never)
      .filter((t) => t.eventType === step.event.type)
      .map(idOf);
    expect(
      index.candidates(state, step.event.type).map((t) => t.id),
      where,
    ).toEqual(xstateCandidates);
    const chosen = (machine.getTransitionData(step.before as never, step.event) as AnyTransitionDefinition[]).map(idOf);
    const r = resolveTransition(def, state, step.before.context as object, step.event, undefined, kind);
    expect(r.taken ? [r.taken.id] : [], where).toEqual(chosen);
    if (r.taken) taken++;
    checked++;
  }
  return { checked, taken };
}

describe('the index’s choice of transition is XState’s', () => {
  it('should agree with XState on every step of every edge of the safety machine', () => {
    const graph = exploreMachine(safetyMachine);
    const { checked, taken } = compare(
      safetyMachine,
      safetyMachineKind,
      graph.edges.flatMap((e) => e.steps),
    );
    expect(checked).toBe(graph.edges.length + graph.edges.filter((e) => e.ungated).length);
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThan(checked);
  });

  it('should agree with XState on every step of every edge of the Patrol machine', () => {
    const graph = exploreKind(patrolMachine, { ...patrolKindTesting.exploration(), noOps: true });
    const { checked, taken } = compare(
      patrolMachine,
      patrolKindTesting.kind,
      graph.edges.flatMap((e) => e.steps),
    );
    expect(checked).toBe(graph.edges.length);
    expect(taken).toBeLessThan(checked);
  });
});
