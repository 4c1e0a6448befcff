import { describe, expect, it } from 'vitest';
import { safetyMachine, safetyMachineKind, type SafetyContext } from 'assistant-safety';
import { exploreMachine } from 'assistant-safety/testing';

/*
 * The compiled table copies a context with the kind's `copyContext` (one object literal, so one
 * shape in V8) instead of a spread. It must be the spread: same fields, same order, same values,
 * on every context the explored graph reaches, and exactly the fields the context schema has.
 */
describe("the safety kind's context copy", () => {
  const copy = safetyMachineKind.copyContext!;
  const graph = exploreMachine(safetyMachine);
  const contexts = graph.edges.flatMap((e) => [e.before.context, e.after.context]) as SafetyContext[];

  it('should equal a spread of every explored context, field by field and in order', () => {
    expect(contexts.length).toBeGreaterThan(1000);
    const differences: string[] = [];
    for (const context of contexts) {
      const spread = { ...context } as Record<string, unknown>;
      const copied = copy(context) as unknown as Record<string, unknown>;
      if (copied === (context as unknown)) differences.push('the context itself, not a copy');
      if (Object.keys(copied).join() !== Object.keys(spread).join())
        differences.push(`fields ${Object.keys(copied).join()} against ${Object.keys(spread).join()}`);
      for (const key of Object.keys(spread)) if (copied[key] !== spread[key]) differences.push(`field ${key}`);
    }
    expect(differences.slice(0, 3)).toEqual([]);
  });

  it('should list exactly the fields of the context schema', () => {
    const shape = (safetyMachineKind.context as unknown as { def: { shape: Record<string, unknown> } }).def.shape;
    expect(Object.keys(copy(safetyMachineKind.initialContext(undefined)))).toEqual(Object.keys(shape));
  });
});
