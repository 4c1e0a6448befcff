import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMachineDefinition } from 'assistant-safety';
import {
  canRedo,
  canUndo,
  commitEdit,
  createEditHistory,
  HISTORY_LIMIT,
  redoEdit,
  undoEdit,
} from '../../src/editor/EditHistory.js';
import { emptyLayout } from '../../src/editor/MachineLayout.js';

const start = () =>
  createEditHistory({
    definition: parseMachineDefinition(JSON.parse(readFileSync('machines/assistant-safety.json', 'utf8'))),
    layout: emptyLayout(),
  });

describe('edit history', () => {
  it('should undo and redo every edit in order', () => {
    let h = start();
    const original = h.present;
    h = commitEdit(h, { type: 'setStateDescription', state: 'READING', description: 'one' });
    h = commitEdit(h, { type: 'moveNode', state: 'READING', position: { x: 1, y: 2 } });
    expect(canUndo(h)).toBe(true);
    h = undoEdit(h);
    expect(h.present.layout.nodes.READING).toBeUndefined();
    expect(h.present.definition.states.READING!.description).toBe('one');
    h = undoEdit(h);
    expect(h.present).toBe(original);
    expect(canUndo(h)).toBe(false);
    expect(undoEdit(h)).toBe(h);
    h = redoEdit(redoEdit(h));
    expect(h.present.layout.nodes.READING).toEqual({ x: 1, y: 2 });
    expect(canRedo(h)).toBe(false);
  });

  it('should drop the redo branch on a new edit and bound the history', () => {
    let h = start();
    h = commitEdit(h, { type: 'setStateDescription', state: 'READING', description: 'a' });
    h = undoEdit(h);
    h = commitEdit(h, { type: 'setStateDescription', state: 'READING', description: 'b' });
    expect(canRedo(h)).toBe(false);
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) {
      h = commitEdit(h, { type: 'moveNode', state: 'READING', position: { x: i, y: 0 } });
    }
    expect(h.past.length).toBe(HISTORY_LIMIT);
  });
});
