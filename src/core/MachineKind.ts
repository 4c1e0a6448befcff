import type * as z from 'zod/mini';

/** A guard implementation: a pure predicate over a context and an event. */
export type KindGuard<C, E> = (context: C, event: E) => boolean;

/**
 * A guard that reads params the machine JSON gives it (`"guard": { "type": "atLeast", "params": { "n": 3 } }`),
 * checked against its schema when the machine is loaded, as an action's are.
 */
export interface KindParamGuard<C, E, P = never> {
  params: z.ZodMiniType<P>;
  test: (context: C, event: E, params: P) => boolean;
}

/**
 * An action implementation: a pure function from context, event and params to a context patch.
 * It may also give `apply`, the same update written into a private copy of the context (a draft
 * nobody else holds) field by field; the compiled table then calls it instead of merging the patch,
 * which is cheaper for actions on the hot path. `run` must equal copying the context, applying, and
 * returning the copy: define such an action with {@link draftAction}.
 */
export interface KindAction<C, E, P = never> {
  /** Schema of the action's params in the machine JSON; absent when it takes none. */
  params?: z.ZodMiniType<P>;
  run: (context: C, event: E, params: P) => Partial<C>;
  /** Writes the update into `draft`, a copy of the context only this step holds; reads it first, writes last. */
  apply?: (draft: C, event: E, params: P) => void;
}

/**
 * An action written as an update of a draft (see {@link KindAction}); its `run` copies the context
 * and applies the update to the copy, so XState and anything else that asks for a patch get the same.
 *
 * @example
 * const open = draftAction<{ open: boolean }, { type: 'OPEN' }>({ apply: (draft) => { draft.open = true; } });
 * open.run({ open: false }, { type: 'OPEN' }, undefined as never); // { open: true }
 */
export function draftAction<C extends object, E, P = never>(impl: {
  params?: z.ZodMiniType<P>;
  apply: (draft: C, event: E, params: P) => void;
}): KindAction<C, E, P> & { apply: (draft: C, event: E, params: P) => void } {
  const { apply } = impl;
  return {
    ...(impl.params !== undefined && { params: impl.params }),
    apply,
    run: (context, event, params) => {
      const draft = { ...context };
      apply(draft, event, params);
      return draft;
    },
  };
}

/** What {@link defineMachineKind} takes. */
export interface MachineKindInit<C extends object, E extends { type: string }, I> {
  /** A name for messages (`safety`, `patrol`). */
  name: string;
  /** The context schema: a snapshot's context is checked against it. */
  context: z.ZodMiniType<C>;
  /** The event schemas, a discriminated union on `type`: a machine JSON may only handle these types. */
  events: z.ZodMiniDiscriminatedUnion<z.ZodMiniObject[]>;
  /** The named guards a machine JSON of this kind may reference. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each guard has its own params type
  guards: Record<string, KindGuard<C, E> | KindParamGuard<C, E, any>>;
  /** The named actions a machine JSON of this kind may reference. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each action has its own params type
  actions: Record<string, KindAction<C, E, any>>;
  /** The context of a new actor, from its input. */
  initialContext: (input: I | undefined) => C;
  /** What a recording keeps of the context at each step: declared once, here. */
  recorded: (context: Readonly<C>) => unknown;
  /**
   * A shallow copy of a context as one object literal listing every field, for a kind on a hot path.
   * The compiled table copies the context once per transition that runs actions; by default with a
   * spread, which V8 makes slow (megamorphic) once the fields have held values of several types
   * (`null`, then a string). A literal has one shape whatever it copies. It must equal `{ ...context }`:
   * a test compares them on every explored context.
   */
  copyContext?: (context: C) => C;
  /** The snapshot version this build writes, and how each older version becomes the next one. */
  snapshot: {
    version: number;
    migrations: Record<number, (snapshot: Record<string, unknown>) => Record<string, unknown>>;
    /**
     * What every state the machine reaches keeps beyond the context's types (the kind's invariants
     * that hold of one configuration): each problem with the path of the field. A restore refuses a
     * snapshot that breaks one, so an edited snapshot cannot start a session no run could reach.
     */
    check?: (state: string, context: C) => { path: (string | number)[]; message: string }[];
  };
}

/**
 * One value for everything a statechart of one kind needs besides its JSON: the context and event
 * schemas, the named guards and actions, the recorded projection and the snapshot versions. The
 * loader ({@link safeParseMachineDefinition}) and the builder ({@link createMachineOfKind}) take a kind,
 * so a second kind of machine (a toy, or Patrol's run machine) reuses them without touching their code.
 */
export interface MachineKind<
  C extends object = object,
  E extends { type: string } = { type: string },
  I = unknown,
> extends MachineKindInit<C, E, I> {
  /** Every event type the kind handles, in the schema's order. */
  readonly eventTypes: readonly string[];
}

/**
 * Defines a machine kind. The event types are read from the events' discriminated union.
 *
 * @example
 * const doorKind = defineMachineKind({
 *   name: 'door',
 *   context: z.object({ opened: z.number() }),
 *   events: z.discriminatedUnion('type', [z.object({ type: z.literal('OPEN') }), z.object({ type: z.literal('CLOSE') })]),
 *   guards: { neverOpened: (c) => c.opened === 0 },
 *   actions: { count: { run: (c) => ({ opened: c.opened + 1 }) } },
 *   initialContext: () => ({ opened: 0 }),
 *   recorded: (c) => ({ opened: c.opened }),
 *   snapshot: { version: 1, migrations: {} },
 * });
 * doorKind.eventTypes; // ['OPEN', 'CLOSE']
 */
export function defineMachineKind<C extends object, E extends { type: string }, I = unknown>(
  init: MachineKindInit<C, E, I>,
): MachineKind<C, E, I> {
  const eventTypes = init.events.def.options.map((o) => {
    const type = (o.def.shape as Record<string, z.ZodMiniType>)['type'];
    const values = (type?._zod.def as { values?: unknown[] } | undefined)?.values;
    if (!values || typeof values[0] !== 'string')
      throw new TypeError(`machine kind "${init.name}": every event schema needs a literal string "type"`);
    return values[0];
  });
  return { ...init, eventTypes };
}

/** A machine kind of any context, events and input: what the loader and the builder take. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the loader and builder only pass values through
export type AnyMachineKind = MachineKind<any, any, any>;
