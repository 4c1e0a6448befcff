import { ANY_STATE, indexMachine, refName, transitionId as indexTransitionId } from 'assistant-safety';
import type { IndexedTransition, MachineDefinition } from 'assistant-safety';

/*
 * Machine definition -> graph, framework-free. States become nodes. A
 * transition with a target becomes an edge (a transition back into its own
 * state is an edge too, drawn as a loop). A transition without a target does
 * not leave the state (an "internal transition", as in UML): it belongs to
 * its node, which the diagram draws compactly (a count, the list on hover,
 * a loop while it is the one taken), keeping the diagram free of self-loop
 * spaghetti. The root-level `on` (transitions that apply in every state
 * unless the state handles the event) hangs off one extra node, ANY_STATE,
 * drawn as the dashed "any state" band.
 */

/** Id of the node that stands for "every state" (root-level transitions): the machine index's. */
export { ANY_STATE };

export interface TransitionModel {
  /** Stable id, the machine index's: `STATE.EVENT[i]`, or `*.EVENT[i]` for a root-level transition. */
  id: string;
  source: string;
  /** Where it goes; equal to `source` for an internal (targetless) transition. */
  target: string;
  internal: boolean;
  event: string;
  guard?: string;
  actions: string[];
  /** Reason code when the transition blocks the call. */
  blocks?: string;
  description: string;
}

export interface StateNodeModel {
  id: string;
  /** `any` for the root-level marker node. */
  kind: 'state' | 'any';
  label: string;
  description: string;
  initial: boolean;
  /** Targetless transitions, drawn inside the node, in definition order. */
  internal: TransitionModel[];
}

export interface GraphModel {
  id: string;
  description: string;
  nodes: StateNodeModel[];
  /** Transitions with a target, drawn as edges. */
  edges: TransitionModel[];
  /** Every transition by id. */
  transitions: Map<string, TransitionModel>;
  definition: MachineDefinition;
}

function transitionModel(t: IndexedTransition): TransitionModel {
  const source = t.source ?? ANY_STATE;
  const block = (t.definition.actions ?? []).find((a) => refName(a) === 'block');
  const code = typeof block === 'object' ? block.params?.['reasonCode'] : undefined;
  return {
    id: t.id,
    source,
    target: t.target ?? source,
    internal: t.target === undefined,
    event: t.event,
    ...(t.guard !== undefined && { guard: t.guard }),
    actions: [...t.actions],
    ...(block !== undefined && { blocks: typeof code === 'string' ? code : 'BLOCKED' }),
    description: t.description,
  };
}

/** The id of the transition at `index` of `event` in `source` (a state name or {@link ANY_STATE}). */
export const transitionId = (source: string, event: string, index: number) =>
  indexTransitionId(source === ANY_STATE ? null : source, event, index);

/**
 * Builds the graph of a validated machine definition.
 *
 * @example
 * const graph = buildGraphModel(parseMachineDefinition(json));
 * graph.nodes.map((n) => n.id); // ['*', 'RESOLVING', 'READING', 'WRITING', 'VERIFYING']
 */
export function buildGraphModel(def: MachineDefinition): GraphModel {
  const nodes: StateNodeModel[] = [];
  const edges: TransitionModel[] = [];
  const transitions = new Map<string, TransitionModel>();
  const index = indexMachine(def);
  const add = (source: string | null, node: StateNodeModel) => {
    for (const t of index.transitions) {
      if (t.source !== source) continue;
      const model = transitionModel(t);
      transitions.set(model.id, model);
      if (model.internal) node.internal.push(model);
      else edges.push(model);
    }
  };
  if (def.on && Object.keys(def.on).length > 0) {
    const any: StateNodeModel = {
      id: ANY_STATE,
      kind: 'any',
      label: 'any state',
      description: 'Root-level transitions: they apply in every state that does not handle the event itself.',
      initial: false,
      internal: [],
    };
    nodes.push(any);
    add(null, any);
  }
  for (const [name, state] of Object.entries(def.states)) {
    const node: StateNodeModel = {
      id: name,
      kind: 'state',
      label: name,
      description: state.description,
      initial: name === def.initial,
      internal: [],
    };
    nodes.push(node);
    add(name, node);
  }
  return { id: def.id, description: def.description, nodes, edges, transitions, definition: def };
}
