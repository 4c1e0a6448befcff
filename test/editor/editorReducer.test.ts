import { describe, expect, it } from 'vitest';
import { editorReducer, isDirty } from '../../viz/editor/model/editorReducer.js';
import { RESOLVING_WRITE, shippedEditor } from './fixtures.js';

describe('the editor reducer', () => {
  it('should apply an edit through the history, undo it to the loaded document and redo it', () => {
    const start = shippedEditor();
    const edited = editorReducer(start, {
      type: 'edit',
      edit: { type: 'retargetTransition', at: RESOLVING_WRITE, target: 'WRITING' },
    });
    expect(edited.history.present.definition.states.RESOLVING!.on!.BEGIN_CALL![RESOLVING_WRITE.index]!.target).toBe(
      'WRITING',
    );
    expect(isDirty(edited)).toBe(true);
    const undone = editorReducer(edited, { type: 'undo' });
    expect(undone.history.present).toBe(start.history.present);
    expect(isDirty(undone)).toBe(false);
    const redone = editorReducer(undone, { type: 'redo' });
    expect(redone.history.present).toBe(edited.history.present);
    expect(editorReducer(start, { type: 'undo' })).toBe(start);
  });

  it('should keep the selected transition selected when its event or priority changes, and drop it when removed', () => {
    let s = editorReducer(shippedEditor(), {
      type: 'select',
      selection: { kind: 'transition', id: 'VERIFYING.CHECK_FINAL_ANSWER[1]' },
    });
    s = editorReducer(s, {
      type: 'edit',
      edit: { type: 'moveTransition', at: { source: 'VERIFYING', event: 'CHECK_FINAL_ANSWER', index: 1 }, toIndex: 0 },
    });
    expect(s.selection).toEqual({ kind: 'transition', id: 'VERIFYING.CHECK_FINAL_ANSWER[0]' });
    s = editorReducer(s, {
      type: 'edit',
      edit: {
        type: 'setTransitionEvent',
        at: { source: 'VERIFYING', event: 'CHECK_FINAL_ANSWER', index: 0 },
        event: 'CHECK_TOOL',
      },
    });
    expect(s.selection).toEqual({ kind: 'transition', id: 'VERIFYING.CHECK_TOOL[1]' });
    s = editorReducer(s, {
      type: 'edit',
      edit: { type: 'removeTransition', at: { source: 'VERIFYING', event: 'CHECK_TOOL', index: 1 } },
    });
    expect(s.selection).toEqual({ kind: 'state', state: 'VERIFYING' });
    s = editorReducer(s, {
      type: 'edit',
      edit: { type: 'addTransition', source: null, event: 'RESET', transition: { description: 'Another reset.' } },
    });
    expect(s.selection).toEqual({ kind: 'transition', id: '*.RESET[1]' });
    s = editorReducer(s, { type: 'undo' });
    expect(s.selection).toBeNull();
  });

  it('should refuse an edit naming a transition that is not there, with the reason and nothing changed', () => {
    const start = shippedEditor();
    const s = editorReducer(start, {
      type: 'edit',
      edit: { type: 'removeTransition', at: { source: 'READING', event: 'RESET', index: 3 } },
    });
    expect(s.history).toBe(start.history);
    expect(s.error).toMatch(/states\.READING\.on\.RESET\[3\]: no such transition/);
  });

  it('should keep positions across edits, and stop a counterexample being played on a behaviour edit but not on a node move', () => {
    let s = editorReducer(shippedEditor(), { type: 'play', invariant: 'I1', step: 0 });
    s = editorReducer(s, { type: 'edit', edit: { type: 'moveNode', state: 'READING', position: { x: 5, y: 6 } } });
    expect(s.playback).toEqual({ invariant: 'I1', step: 0 });
    expect(s.history.present.layout.nodes.READING).toEqual({ x: 5, y: 6 });
    s = editorReducer(s, { type: 'edit', edit: { type: 'setStateDescription', state: 'READING', description: 'x' } });
    expect(s.playback).toBeNull();
    expect(s.history.present.layout.nodes.READING).toEqual({ x: 5, y: 6 });
  });

  it('should base the editor on the saved file after a save: clean, with the new version, history kept', () => {
    let s = editorReducer(shippedEditor(), {
      type: 'edit',
      edit: { type: 'setStateDescription', state: 'READING', description: 'Saved.' },
    });
    s = editorReducer(s, { type: 'saved', text: 'new text', version: 'v2', layoutVersion: 'absent' });
    expect(s.base.version).toBe('v2');
    expect(isDirty(s)).toBe(false);
    s = editorReducer(s, { type: 'undo' });
    expect(isDirty(s)).toBe(true);
  });
});
