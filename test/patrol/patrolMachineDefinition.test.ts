import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MachineDefinitionError } from 'assistant-safety';
import { createPatrolMachine, parsePatrolMachineDefinition, patrolMachineDefinition } from 'assistant-safety/patrol';

const shipped = () => JSON.parse(readFileSync('machines/patrol.json', 'utf8')) as Record<string, unknown>;

describe('the Patrol machine as data', () => {
  it('should ship machines/patrol.json as the machine definition, with named guards and actions only', () => {
    expect(parsePatrolMachineDefinition(shipped())).toEqual(patrolMachineDefinition);
    const text = readFileSync('machines/patrol.json', 'utf8');
    expect(text).not.toMatch(/"(invoke|after|entry|exit)"/);
  });

  it('should describe every guard and action it uses and use every one it describes', () => {
    const def = parsePatrolMachineDefinition(shipped());
    const used = new Set<string>();
    for (const state of Object.values(def.states))
      for (const list of Object.values(state.on ?? {}))
        for (const t of list) {
          if (t.guard) used.add(typeof t.guard === 'string' ? t.guard : t.guard.type);
          for (const a of t.actions ?? []) used.add(typeof a === 'string' ? a : a.type);
        }
    expect([...used].sort()).toEqual([...Object.keys(def.guards), ...Object.keys(def.actions)].sort());
  });

  it('should refuse a malformed machine, naming every problem with its path', () => {
    const bad = shipped() as { initial: string; states: Record<string, { on?: Record<string, unknown[]> }> };
    bad.initial = 'nowhere';
    bad.states.gating!.on!.TELEPORT = [{ target: 'mars', description: 'x' }];
    bad.states.triage!.on!.TRIAGED = [
      { target: 'mainPass', actions: [{ type: 'noteError', params: { phase: 'lunch' } }], description: 'x' },
    ];
    let error: unknown;
    try {
      createPatrolMachine(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MachineDefinitionError);
    const issues = (error as MachineDefinitionError).issues.map((i) => [i.code, i.path.join('.')]);
    expect(issues).toEqual([
      ['unknown_state', 'initial'],
      ['unknown_event', 'states.gating.on.TELEPORT'],
      ['unknown_state', 'states.gating.on.TELEPORT.0.target'],
      ['invalid_params', 'states.triage.on.TRIAGED.0.actions.0.params.phase'],
    ]);
  });
});
