import {
  canRedo,
  canUndo,
  commitEdit,
  createEditHistory,
  redoEdit,
  undoEdit,
  type EditHistory,
} from 'assistant-safety/editor';
import { applyMachineEdit, type EditorDocument, type MachineEdit } from 'assistant-safety/editor';
import type { MachineDefinition } from 'assistant-safety';
import { idOfTransitionRef, transitionRefOf } from './transitionRefOf.js';

/*
 * The editor's state as one framework-free reducer: the document with its
 * undo/redo history, the file it was loaded from (its version is what a save
 * must match), what is selected, and which counterexample step is shown.
 */

/** What the inspector shows: a transition (by diagram id), a state, or nothing. */
export type EditorSelection = { kind: 'transition'; id: string } | { kind: 'state'; state: string } | null;

/** The file on disk the editor is based on: loaded, or last saved. */
export interface EditorBase {
  text: string;
  version: string;
  layoutVersion: string;
  /** The document as it was then: the editor is clean when the present one is this one. */
  document: EditorDocument;
}

export interface EditorState {
  name: string;
  base: EditorBase;
  history: EditHistory;
  selection: EditorSelection;
  /** The counterexample being played: which invariant, which step (0-based). */
  playback: { invariant: string; step: number } | null;
  /** Why the last edit was refused (an edit naming something that is not there). */
  error: string | null;
}

export type EditorAction =
  | { type: 'edit'; edit: MachineEdit }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'select'; selection: EditorSelection }
  | { type: 'play'; invariant: string; step: number }
  | { type: 'stopPlayback' }
  | { type: 'saved'; text: string; version: string; layoutVersion: string };

/**
 * A new editor on a loaded file.
 *
 * @example
 * const state = createEditorState('assistant-safety', { text, version, layoutVersion, document: { definition, layout } });
 */
export function createEditorState(name: string, base: EditorBase): EditorState {
  return {
    name,
    base,
    history: createEditHistory(base.document),
    selection: null,
    playback: null,
    error: null,
  };
}

/** Where the selected transition is after an edit: it follows moves, and is dropped when it is gone. */
function selectionAfter(selection: EditorSelection, edit: MachineEdit, next: EditorDocument): EditorSelection {
  if (edit.type === 'addTransition') {
    const list = edit.source === null ? next.definition.on : next.definition.states[edit.source]?.on;
    const index = (list?.[edit.event]?.length ?? 1) - 1;
    return { kind: 'transition', id: idOfTransitionRef({ source: edit.source, event: edit.event, index }) };
  }
  if (selection?.kind !== 'transition' || !('at' in edit)) return selection;
  if (idOfTransitionRef(edit.at) !== selection.id) return selection;
  switch (edit.type) {
    case 'removeTransition':
      return edit.at.source === null ? null : { kind: 'state', state: edit.at.source };
    case 'setTransitionEvent': {
      const list = edit.at.source === null ? next.definition.on : next.definition.states[edit.at.source]?.on;
      const index = (list?.[edit.event]?.length ?? 1) - 1;
      return { kind: 'transition', id: idOfTransitionRef({ ...edit.at, event: edit.event, index }) };
    }
    case 'moveTransition':
      return { kind: 'transition', id: idOfTransitionRef({ ...edit.at, index: edit.toIndex }) };
    default:
      return selection;
  }
}

/** Drops a selection that no longer names anything (after undo or redo). */
function stillThere(selection: EditorSelection, definition: MachineDefinition): EditorSelection {
  if (selection?.kind === 'state') return definition.states[selection.state] ? selection : null;
  if (selection?.kind === 'transition') {
    const at = transitionRefOf(selection.id);
    if (!at) return null;
    const on = at.source === null ? definition.on : definition.states[at.source]?.on;
    return on?.[at.event]?.[at.index] ? selection : null;
  }
  return selection;
}

/**
 * The editor's transitions. Every document change goes through the history,
 * so each one can be undone; an edit that does not fit the document is
 * refused with `error` set and nothing changed.
 *
 * @example
 * let s = createEditorState(name, base);
 * s = editorReducer(s, { type: 'edit', edit: { type: 'removeTransition', at } });
 * s = editorReducer(s, { type: 'undo' });
 */
export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'edit': {
      let history: EditHistory;
      try {
        // Validate the edit on the present document first: commitEdit would throw the same error.
        applyMachineEdit(state.history.present, action.edit);
        history = commitEdit(state.history, action.edit);
      } catch (e) {
        return { ...state, error: (e as Error).message };
      }
      if (history === state.history) return { ...state, error: null };
      // Moving a node changes no behaviour: the counterexample being played stays valid.
      const playback = action.edit.type === 'moveNode' ? state.playback : null;
      return {
        ...state,
        history,
        selection: selectionAfter(state.selection, action.edit, history.present),
        playback,
        error: null,
      };
    }
    case 'undo':
    case 'redo': {
      if (action.type === 'undo' ? !canUndo(state.history) : !canRedo(state.history)) return state;
      const history = action.type === 'undo' ? undoEdit(state.history) : redoEdit(state.history);
      return {
        ...state,
        history,
        selection: stillThere(state.selection, history.present.definition),
        playback: null,
        error: null,
      };
    }
    case 'select':
      return { ...state, selection: action.selection, error: null };
    case 'play':
      return { ...state, playback: { invariant: action.invariant, step: action.step } };
    case 'stopPlayback':
      return { ...state, playback: null };
    case 'saved':
      return {
        ...state,
        base: {
          text: action.text,
          version: action.version,
          layoutVersion: action.layoutVersion,
          document: state.history.present,
        },
      };
  }
}

/** The document differs from the file it is based on. */
export const isDirty = (state: EditorState) => state.history.present !== state.base.document;
export { canRedo, canUndo };
