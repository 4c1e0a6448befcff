import { describe, expect, it } from 'vitest';
import {
  indexMachine,
  parseMachineDefinition,
  parseTransitionId,
  refName,
  refParams,
  safetyMachineDefinition,
  transitionId,
} from 'assistant-safety';
import { generateMutants, transitionsOf } from 'assistant-safety/testing';

const def = parseMachineDefinition(safetyMachineDefinition);

describe('the machine index', () => {
  it('should be built once per definition and list every transition with one id', () => {
    const index = indexMachine(def);
    expect(indexMachine(def)).toBe(index);
    expect(transitionsOf(def)).toBe(index.transitions);
    let count = 0;
    for (const state of Object.values(def.states))
      for (const list of Object.values(state.on ?? {})) count += list.length;
    for (const list of Object.values(def.on ?? {})) count += list.length;
    expect(index.transitions).toHaveLength(count);
    expect(new Set(index.transitions.map((t) => t.id)).size).toBe(count);
    expect(index.byId.get('RESOLVING.BEGIN_CALL[6]')).toMatchObject({
      source: 'RESOLVING',
      event: 'BEGIN_CALL',
      index: 6,
      guard: 'isWrite',
    });
    expect(index.transitions.filter((t) => t.source === null).every((t) => t.id.startsWith('*.'))).toBe(true);
  });

  it('should give the candidates of an event in a state in XState’s order: the state’s own, then the root’s', () => {
    const index = indexMachine(def);
    const ids = index.candidates('READING', 'TOOL_SUCCEEDED').map((t) => t.id);
    const own = ids.filter((id) => id.startsWith('READING.'));
    expect(ids).toEqual([...own, ...ids.filter((id) => id.startsWith('*.'))]);
    expect(index.candidates('READING', 'NO_SUCH_EVENT')).toEqual([]);
  });

  it('should read the ids it gives and the JSON path form earlier reports used, naming the same transition', () => {
    for (const t of indexMachine(def).transitions) {
      const at = { source: t.source, event: t.event, index: t.index };
      expect(parseTransitionId(t.id)).toEqual(at);
      const old = t.source === null ? `on.${t.event}[${t.index}]` : `states.${t.source}.on.${t.event}[${t.index}]`;
      expect(parseTransitionId(old)).toEqual(at);
      expect(transitionId(t.source, t.event, t.index)).toBe(t.id);
    }
    expect(parseTransitionId('READING')).toBeUndefined();
    expect(parseTransitionId('states.READING.on.BEGIN_CALL[0].guard')).toBeUndefined();
  });

  it('should name guard and action references once, for the loader, the mutants and the diagram alike', () => {
    expect(refName('isWrite')).toBe('isWrite');
    expect(refName({ type: 'block', params: { reasonCode: 'UNVERIFIED_WRITE' } })).toBe('block');
    expect(refParams({ type: 'block', params: { reasonCode: 'UNVERIFIED_WRITE' } })).toEqual({
      reasonCode: 'UNVERIFIED_WRITE',
    });
    expect(refParams('isWrite')).toBeUndefined();
    const ids = new Set(indexMachine(def).transitions.map((t) => t.id));
    for (const m of generateMutants(def)) expect(ids.has(m.id.split(' ')[1]!), m.id).toBe(true);
  });
});
