import type { TransitionRef } from 'assistant-safety/editor';
import { ANY_STATE, transitionId } from '../../model/graphModel.js';

const ID = /^([^.]+)\.([^[]+)\[(\d+)\]$/;

/**
 * The edit address of a diagram transition id (`STATE.EVENT[i]`, `*.EVENT[i]`
 * for the root), or undefined for something else.
 *
 * @example
 * transitionRefOf('*.RESET[0]'); // { source: null, event: 'RESET', index: 0 }
 */
export function transitionRefOf(id: string): TransitionRef | undefined {
  const m = ID.exec(id);
  if (!m) return undefined;
  return { source: m[1] === ANY_STATE ? null : m[1]!, event: m[2]!, index: Number(m[3]) };
}

/** The diagram id of a transition address: the inverse of {@link transitionRefOf}. */
export const idOfTransitionRef = (at: TransitionRef) => transitionId(at.source ?? ANY_STATE, at.event, at.index);
