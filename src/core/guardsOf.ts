import { guardOperands, type MachineDefinition } from './MachineDefinition.js';
import type { AnyMachineKind } from './MachineKind.js';

/** A guard as the executors call it: params from the transition's reference, if it gives any. */
export type GuardTest<C, E> = (context: C, event: E, params?: unknown) => boolean;

/*
 * The guards a machine's transitions may name: the kind's own implementations, and the guards its
 * JSON derives from them with `not`, `and` and `or`. The compiled table, the XState binding and the
 * coverage tracker all read guards through this one function, so a derived guard decides the same
 * everywhere.
 */

const cache = new WeakMap<
  AnyMachineKind,
  WeakMap<MachineDefinition, Record<string, GuardTest<object, { type: string }>>>
>();

/**
 * Every guard a validated definition may name, by name.
 *
 * @example
 * guardsOf(doorKind, definition)['locked']; // a derived guard: (context, event) => !carriesKey(context, event)
 */
export function guardsOf<C, E>(kind: AnyMachineKind, def: MachineDefinition): Record<string, GuardTest<C, E>> {
  let byDef = cache.get(kind);
  if (!byDef) cache.set(kind, (byDef = new WeakMap()));
  let guards = byDef.get(def);
  if (!guards) byDef.set(def, (guards = build(kind, def)));
  return guards as Record<string, GuardTest<C, E>>;
}

function build(kind: AnyMachineKind, def: MachineDefinition): Record<string, GuardTest<object, { type: string }>> {
  const guards = kindGuardTests(kind);
  const resolve = (name: string): GuardTest<object, { type: string }> => {
    if (Object.hasOwn(guards, name)) return guards[name]!;
    const entry = def.guards[name]!;
    // Validation refused cycles and unknown operands, so this recursion ends.
    const operands = guardOperands(entry).map(resolve);
    const guard: GuardTest<object, { type: string }> =
      entry.not !== undefined
        ? (c, e) => !operands[0]!(c, e)
        : entry.and !== undefined
          ? (c, e) => operands.every((g) => g(c, e))
          : (c, e) => operands.some((g) => g(c, e));
    guards[name] = guard;
    return guard;
  };
  for (const [name, entry] of Object.entries(def.guards)) if (guardOperands(entry).length > 0) resolve(name);
  return guards;
}

/** The kind's own guards as the executors call them (a guard with params gets the transition's). */
export function kindGuardTests(kind: AnyMachineKind): Record<string, GuardTest<object, { type: string }>> {
  const tests: Record<string, GuardTest<object, { type: string }>> = {};
  for (const [name, impl] of Object.entries(kind.guards as AnyMachineKind['guards'])) {
    tests[name] = typeof impl === 'function' ? impl : (c, e, p) => impl.test(c, e, p);
  }
  return tests;
}
