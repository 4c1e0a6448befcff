/*
 * assistant-safety/editor: edits to a machine definition as data, applied by a
 * pure function; undo history; layout; line diffs; the machine file API's wire
 * schemas. Runtime-neutral: the app imports it. Reading and writing machine
 * files is in assistant-safety/node.
 */
export { applyMachineEdit, MachineEdit, MachineEditError, TransitionRef } from './MachineEdit.js';
export type { EditorDocument } from './MachineEdit.js';
export { createEditHistory, commitEdit, undoEdit, redoEdit, canUndo, canRedo, HISTORY_LIMIT } from './EditHistory.js';
export type { EditHistory } from './EditHistory.js';
export { MachineLayout, NodePosition, emptyLayout } from './MachineLayout.js';
export { lineDiff, diffChanges } from './lineDiff.js';
export type { DiffLine } from './lineDiff.js';
export {
  SaveMachineBody,
  MachineFileResponse,
  SavePreviewResponse,
  SaveMachineResponse,
  MachineApiError,
} from './MachineFileApi.js';
export { formatJson } from './formatJson.js';
