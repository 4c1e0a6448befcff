import type { EditorState } from './editorReducer.js';

/*
 * Editor sessions kept for the page's lifetime, by machine name: leaving the
 * edit mode (to replay a recording, say) and coming back finds the edits and
 * their history where they were, as long as the file on disk is still the
 * one they are based on.
 */

const sessions = new Map<string, EditorState>();

/** Remembers the editor of machine `state.name`. */
export function keepEditorSession(state: EditorState): void {
  sessions.set(state.name, state);
}

/**
 * The kept editor of `name`, if it is based on the file at `version`.
 *
 * @example
 * const state = resumeEditorSession('assistant-safety', file.version) ?? createEditorState(...);
 */
export function resumeEditorSession(name: string, version: string): EditorState | undefined {
  const kept = sessions.get(name);
  return kept && kept.base.version === version ? kept : undefined;
}

/** Forgets the kept editor of `name` (a reload from disk starts afresh). */
export function dropEditorSession(name: string): void {
  sessions.delete(name);
}
