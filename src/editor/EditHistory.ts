import { applyMachineEdit, type EditorDocument, type MachineEdit } from './MachineEdit.js';

/** Undo/redo as plain data: the documents before and after the present one. */
export interface EditHistory {
  readonly past: readonly EditorDocument[];
  readonly present: EditorDocument;
  readonly future: readonly EditorDocument[];
}

/** How many edits undo reaches back. */
export const HISTORY_LIMIT = 200;

/**
 * A history with the document as its present and nothing to undo or redo.
 *
 * @example
 * const h = createEditHistory({ definition, layout: emptyLayout() });
 * canUndo(h); // false
 */
export function createEditHistory(doc: EditorDocument): EditHistory {
  return { past: [], present: doc, future: [] };
}

/**
 * Applies an edit and records it; a new edit clears what redo would have done.
 *
 * @example
 * let h = createEditHistory({ definition, layout });
 * h = commitEdit(h, { type: 'setStateDescription', state: 'READING', description: 'Target known.' });
 * h = undoEdit(h); // back to the original
 */
export function commitEdit(history: EditHistory, edit: MachineEdit): EditHistory {
  const next = applyMachineEdit(history.present, edit);
  if (next === history.present) return history;
  return { past: [...history.past, history.present].slice(-HISTORY_LIMIT), present: next, future: [] };
}

/**
 * Steps back to the document before the last edit (unchanged when there is none).
 *
 * @example
 * h = undoEdit(commitEdit(h, edit)); // h.present is the document before the edit
 */
export function undoEdit(history: EditHistory): EditHistory {
  const previous = history.past.at(-1);
  if (!previous) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

/**
 * Replays the last undone edit (unchanged when there is none).
 *
 * @example
 * h = redoEdit(undoEdit(commitEdit(h, edit))); // the edit is back
 */
export function redoEdit(history: EditHistory): EditHistory {
  const [next, ...rest] = history.future;
  if (!next) return history;
  return { past: [...history.past, history.present], present: next, future: rest };
}

/**
 * Whether there is an edit to undo.
 *
 * @example
 * canUndo(commitEdit(createEditHistory(doc), edit)); // true
 */
export const canUndo = (h: EditHistory) => h.past.length > 0;
/**
 * Whether there is an undone edit to redo.
 *
 * @example
 * canRedo(undoEdit(commitEdit(createEditHistory(doc), edit))); // true
 */
export const canRedo = (h: EditHistory) => h.future.length > 0;
