import { z } from 'zod';
import { NamedRef, TransitionDefinition, type MachineDefinition } from '../core/MachineDefinition.js';
import { MachineLayout, NodePosition } from './MachineLayout.js';

/*
 * Edits as data, applied by one pure function (the xyflow way): the editor,
 * undo/redo and tests all speak this vocabulary, and nothing mutates a
 * machine in place.
 */

/** Where a transition is: its source state (`null` for the machine's root `on`), event, and index in the list. */
export const TransitionRef = z.strictObject({
  source: z.string().nullable(),
  event: z.string().min(1),
  index: z.number().int().nonnegative(),
});
export type TransitionRef = z.infer<typeof TransitionRef>;

export const MachineEdit = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('addTransition'),
    source: z.string().nullable(),
    event: z.string().min(1),
    transition: TransitionDefinition,
  }),
  z.strictObject({ type: z.literal('removeTransition'), at: TransitionRef }),
  /** `target: null` makes it a transition that stays in its state. */
  z.strictObject({ type: z.literal('retargetTransition'), at: TransitionRef, target: z.string().min(1).nullable() }),
  /** Moves the transition to the end of the new event's list. */
  z.strictObject({ type: z.literal('setTransitionEvent'), at: TransitionRef, event: z.string().min(1) }),
  z.strictObject({ type: z.literal('setTransitionGuard'), at: TransitionRef, guard: z.nullable(NamedRef) }),
  z.strictObject({ type: z.literal('setTransitionActions'), at: TransitionRef, actions: z.array(NamedRef) }),
  z.strictObject({ type: z.literal('setTransitionDescription'), at: TransitionRef, description: z.string().min(1) }),
  /** Changes the transition's priority among those of its event. */
  z.strictObject({ type: z.literal('moveTransition'), at: TransitionRef, toIndex: z.number().int().nonnegative() }),
  z.strictObject({ type: z.literal('setStateDescription'), state: z.string().min(1), description: z.string().min(1) }),
  z.strictObject({ type: z.literal('moveNode'), state: z.string().min(1), position: NodePosition }),
]);
export type MachineEdit = z.infer<typeof MachineEdit>;

/** What the editor edits: the machine and its layout, together, so one undo covers either. */
export interface EditorDocument {
  definition: MachineDefinition;
  layout: MachineLayout;
}

/** An edit that does not fit the document (a transition or state that is not there). */
export class MachineEditError extends Error {
  readonly code = 'INVALID_EDIT' as const;
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'MachineEditError';
  }
}

type TransitionLists = Record<string, TransitionDefinition[]>;

const refPath = (at: { source: string | null; event: string }) =>
  at.source === null ? `on.${at.event}` : `states.${at.source}.on.${at.event}`;

function listsOf(def: MachineDefinition, source: string | null): TransitionLists {
  if (source === null) return def.on ?? {};
  const state = def.states[source];
  if (!state) throw new MachineEditError(`states.${source}`, `no state "${source}"`);
  return state.on ?? {};
}

function withLists(def: MachineDefinition, source: string | null, lists: TransitionLists): MachineDefinition {
  // Empty lists are dropped so the JSON stays tidy and diffs stay small.
  const tidy = Object.fromEntries(Object.entries(lists).filter(([, l]) => l.length > 0));
  if (source === null) {
    const { on: _, ...rest } = def;
    return Object.keys(tidy).length ? { ...rest, on: tidy } : rest;
  }
  const { on: _, ...state } = def.states[source]!;
  return {
    ...def,
    states: { ...def.states, [source]: Object.keys(tidy).length ? { ...state, on: tidy } : state },
  };
}

function updateTransition(
  def: MachineDefinition,
  at: TransitionRef,
  update: (t: TransitionDefinition) => TransitionDefinition,
): MachineDefinition {
  const lists = listsOf(def, at.source);
  const list = lists[at.event];
  if (!list || at.index >= list.length) {
    throw new MachineEditError(`${refPath(at)}[${at.index}]`, 'no such transition');
  }
  const next = list.slice();
  next[at.index] = update(list[at.index]!);
  return withLists(def, at.source, { ...lists, [at.event]: next });
}

function removeAt(def: MachineDefinition, at: TransitionRef): [MachineDefinition, TransitionDefinition] {
  const lists = listsOf(def, at.source);
  const list = lists[at.event];
  if (!list || at.index >= list.length) {
    throw new MachineEditError(`${refPath(at)}[${at.index}]`, 'no such transition');
  }
  const removed = list[at.index]!;
  return [withLists(def, at.source, { ...lists, [at.event]: list.filter((_, i) => i !== at.index) }), removed];
}

function append(def: MachineDefinition, source: string | null, event: string, t: TransitionDefinition) {
  const lists = listsOf(def, source);
  return withLists(def, source, { ...lists, [event]: [...(lists[event] ?? []), t] });
}

/**
 * Applies one edit, returning a new document (the input is not changed).
 * The result is not validated: the editor shows what is wrong with it, and
 * saving refuses a malformed machine.
 *
 * @throws {MachineEditError} when the edit names a transition or state that is not there.
 * @example
 * const next = applyMachineEdit(doc, {
 *   type: 'retargetTransition',
 *   at: { source: 'RESOLVING', event: 'TARGET_ESTABLISHED', index: 0 },
 *   target: 'VERIFYING',
 * });
 */
export function applyMachineEdit(doc: EditorDocument, edit: MachineEdit): EditorDocument {
  const def = doc.definition;
  switch (edit.type) {
    case 'addTransition':
      return { ...doc, definition: append(def, edit.source, edit.event, edit.transition) };
    case 'removeTransition':
      return { ...doc, definition: removeAt(def, edit.at)[0] };
    case 'retargetTransition':
      return {
        ...doc,
        definition: updateTransition(def, edit.at, (t) => {
          const { target: _, ...rest } = t;
          return edit.target === null ? rest : { ...rest, target: edit.target };
        }),
      };
    case 'setTransitionEvent': {
      if (edit.event === edit.at.event) return doc;
      const [without, moved] = removeAt(def, edit.at);
      return { ...doc, definition: append(without, edit.at.source, edit.event, moved) };
    }
    case 'setTransitionGuard':
      return {
        ...doc,
        definition: updateTransition(def, edit.at, (t) => {
          const { guard: _, ...rest } = t;
          return edit.guard === null ? rest : { ...rest, guard: edit.guard };
        }),
      };
    case 'setTransitionActions':
      return {
        ...doc,
        definition: updateTransition(def, edit.at, (t) => {
          const { actions: _, ...rest } = t;
          return edit.actions.length ? { ...rest, actions: edit.actions } : rest;
        }),
      };
    case 'setTransitionDescription':
      return { ...doc, definition: updateTransition(def, edit.at, (t) => ({ ...t, description: edit.description })) };
    case 'moveTransition': {
      const lists = listsOf(def, edit.at.source);
      const list = lists[edit.at.event];
      if (!list || edit.at.index >= list.length || edit.toIndex >= list.length) {
        throw new MachineEditError(`${refPath(edit.at)}[${edit.at.index}]`, 'no such transition or position');
      }
      const next = list.slice();
      const [moved] = next.splice(edit.at.index, 1);
      next.splice(edit.toIndex, 0, moved!);
      return { ...doc, definition: withLists(def, edit.at.source, { ...lists, [edit.at.event]: next }) };
    }
    case 'setStateDescription': {
      const state = def.states[edit.state];
      if (!state) throw new MachineEditError(`states.${edit.state}`, `no state "${edit.state}"`);
      return {
        ...doc,
        definition: { ...def, states: { ...def.states, [edit.state]: { ...state, description: edit.description } } },
      };
    }
    case 'moveNode': {
      if (!def.states[edit.state]) throw new MachineEditError(`states.${edit.state}`, `no state "${edit.state}"`);
      return { ...doc, layout: { ...doc.layout, nodes: { ...doc.layout.nodes, [edit.state]: edit.position } } };
    }
  }
}
