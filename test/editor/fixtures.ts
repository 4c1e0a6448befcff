import { readFileSync } from 'node:fs';
import type { EditorDocument } from '../../src/editor/MachineEdit.js';
import { emptyLayout } from '../../src/editor/MachineLayout.js';
import type { MachineDefinition } from '../../src/core/MachineDefinition.js';
import { createEditorState, type EditorState } from '../../viz/editor/model/editorReducer.js';

/** The shipped machine's JSON, as the editor loads it (a fresh copy each call). */
export const shippedDefinition = (): MachineDefinition =>
  JSON.parse(readFileSync('machines/assistant-safety.json', 'utf8')) as MachineDefinition;

/** A new editor on the shipped machine. */
export function shippedEditor(): EditorState {
  const text = readFileSync('machines/assistant-safety.json', 'utf8');
  const document: EditorDocument = { definition: JSON.parse(text), layout: emptyLayout() };
  return createEditorState('assistant-safety', { text, version: 'v1', layoutVersion: 'absent', document });
}

/** The transition that blocks a write in RESOLVING. */
export const RESOLVING_WRITE = { source: 'RESOLVING', event: 'BEGIN_CALL', index: 6 } as const;
