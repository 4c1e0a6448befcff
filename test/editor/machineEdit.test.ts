import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMachineDefinition, safeParseMachineDefinition } from 'assistant-safety';
import { applyMachineEdit, MachineEdit, MachineEditError, type EditorDocument } from '../../src/editor/MachineEdit.js';
import { emptyLayout } from '../../src/editor/MachineLayout.js';

const doc = (): EditorDocument => ({
  definition: parseMachineDefinition(JSON.parse(readFileSync('machines/assistant-safety.json', 'utf8'))),
  layout: emptyLayout(),
});

describe('applyMachineEdit', () => {
  it('should retarget a transition without changing the input', () => {
    const before = doc();
    const snapshot = JSON.stringify(before);
    const after = applyMachineEdit(before, {
      type: 'retargetTransition',
      at: { source: 'READING', event: 'BEGIN_CALL', index: 0 },
      target: 'VERIFYING',
    });
    expect(after.definition.states.READING!.on!.BEGIN_CALL![0]!.target).toBe('VERIFYING');
    expect(JSON.stringify(before)).toBe(snapshot);
    const stay = applyMachineEdit(before, {
      type: 'retargetTransition',
      at: { source: 'READING', event: 'BEGIN_CALL', index: 0 },
      target: null,
    });
    expect('target' in stay.definition.states.READING!.on!.BEGIN_CALL![0]!).toBe(false);
  });

  it('should add, remove, reorder and re-event transitions, dropping empty lists', () => {
    let d = doc();
    d = applyMachineEdit(d, {
      type: 'addTransition',
      source: 'RESOLVING',
      event: 'CHECK_FINAL_ANSWER',
      transition: {
        description: 'new',
        actions: [{ type: 'block', params: { reasonCode: 'FINAL_ANSWER_UNVERIFIED' } }],
      },
    });
    expect(d.definition.states.RESOLVING!.on!.CHECK_FINAL_ANSWER).toHaveLength(1);
    d = applyMachineEdit(d, {
      type: 'setTransitionEvent',
      at: { source: 'RESOLVING', event: 'CHECK_FINAL_ANSWER', index: 0 },
      event: 'COMPLETE_VERIFICATION',
    });
    expect(d.definition.states.RESOLVING!.on!.CHECK_FINAL_ANSWER).toBeUndefined();
    expect(d.definition.states.RESOLVING!.on!.COMPLETE_VERIFICATION![0]!.description).toBe('new');
    d = applyMachineEdit(d, {
      type: 'removeTransition',
      at: { source: 'RESOLVING', event: 'COMPLETE_VERIFICATION', index: 0 },
    });
    expect(d.definition.states.RESOLVING!.on!.COMPLETE_VERIFICATION).toBeUndefined();
    // The last root TOOL_SUCCEEDED transition (user input: nothing but the call ending) moved first.
    const last = d.definition.on!.TOOL_SUCCEEDED!.length - 1;
    d = applyMachineEdit(d, {
      type: 'moveTransition',
      at: { source: null, event: 'TOOL_SUCCEEDED', index: last },
      toIndex: 0,
    });
    expect(d.definition.on!.TOOL_SUCCEEDED![0]!.actions).toEqual(['finishCall']);
    expect(d.definition.on!.TOOL_SUCCEEDED![last]!.guard).toBeDefined();
    expect(safeParseMachineDefinition(d.definition).success).toBe(true);
  });

  it('should set and clear guards and actions, and edit descriptions', () => {
    const at = { source: 'VERIFYING', event: 'CHECK_TOOL', index: 0 };
    let d = applyMachineEdit(doc(), { type: 'setTransitionGuard', at, guard: null });
    expect(d.definition.states.VERIFYING!.on!.CHECK_TOOL![0]!.guard).toBeUndefined();
    d = applyMachineEdit(d, { type: 'setTransitionGuard', at, guard: 'isDiscovery' });
    expect(d.definition.states.VERIFYING!.on!.CHECK_TOOL![0]!.guard).toBe('isDiscovery');
    d = applyMachineEdit(d, { type: 'setTransitionActions', at, actions: [] });
    expect('actions' in d.definition.states.VERIFYING!.on!.CHECK_TOOL![0]!).toBe(false);
    d = applyMachineEdit(d, { type: 'setTransitionDescription', at, description: 'changed' });
    d = applyMachineEdit(d, { type: 'setStateDescription', state: 'WRITING', description: 'In flight.' });
    expect(d.definition.states.VERIFYING!.on!.CHECK_TOOL![0]!.description).toBe('changed');
    expect(d.definition.states.WRITING!.description).toBe('In flight.');
  });

  it('should move nodes in the layout and keep the layout through machine edits', () => {
    let d = applyMachineEdit(doc(), { type: 'moveNode', state: 'READING', position: { x: 10, y: 20 } });
    d = applyMachineEdit(d, { type: 'setStateDescription', state: 'READING', description: 'x' });
    expect(d.layout.nodes.READING).toEqual({ x: 10, y: 20 });
  });

  it('should refuse edits of things that are not there, naming the path', () => {
    const bad: MachineEdit[] = [
      { type: 'removeTransition', at: { source: 'READING', event: 'COMPLETE_VERIFICATION', index: 0 } },
      { type: 'setTransitionGuard', at: { source: 'VERIFYING', event: 'CHECK_TOOL', index: 9 }, guard: null },
      { type: 'setStateDescription', state: 'NOPE', description: 'x' },
      { type: 'moveNode', state: 'NOPE', position: { x: 0, y: 0 } },
      { type: 'addTransition', source: 'NOPE', event: 'RESET', transition: { description: 'x' } },
    ];
    for (const edit of bad) expect(() => applyMachineEdit(doc(), edit)).toThrow(MachineEditError);
    expect(() => applyMachineEdit(doc(), bad[1]!)).toThrow('states.VERIFYING.on.CHECK_TOOL[9]: no such transition');
  });

  it('should validate edits as data with zod', () => {
    expect(MachineEdit.safeParse({ type: 'moveNode', state: 'A', position: { x: 1, y: 'two' } }).success).toBe(false);
    expect(MachineEdit.safeParse({ type: 'explode' }).success).toBe(false);
  });
});
