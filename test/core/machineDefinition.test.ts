import { readFileSync } from 'node:fs';
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  createSafetyMachine,
  formatPath,
  createSafetySession,
  definitionOf,
  MachineDefinitionError,
  safeParseMachineDefinition,
  safetyMachine,
  SAFETY_EVENT_TYPES,
} from 'assistant-safety';

const shipped = () =>
  JSON.parse(readFileSync(new URL('../../machines/assistant-safety.json', import.meta.url), 'utf8'));

function issuesOf(json: unknown) {
  const result = safeParseMachineDefinition(json);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues;
}

describe('the machine as data', () => {
  it('should load the shipped JSON into an XState machine with the four states', () => {
    const actor = createActor(safetyMachine, { input: {} }).start();
    expect(actor.getSnapshot().value).toBe('RESOLVING');
    expect(Object.keys(safetyMachine.root.states).sort()).toEqual(['READING', 'RESOLVING', 'VERIFYING', 'WRITING']);
    expect(definitionOf(safetyMachine)?.id).toBe('assistant-safety');
  });

  it('should describe every state, guard, action and transition', () => {
    const def = shipped();
    for (const state of Object.values<any>(def.states)) {
      expect(state.description.length).toBeGreaterThan(10);
      for (const list of Object.values<any>(state.on ?? {})) for (const t of list) expect(t.description).toBeTruthy();
    }
    for (const list of Object.values<any>(def.on)) for (const t of list) expect(t.description).toBeTruthy();
    expect(Object.keys(def.guards).length).toBeGreaterThan(0);
    expect(Object.keys(def.actions).length).toBeGreaterThan(0);
  });

  it('should use only known event types', () => {
    const def = shipped();
    const used = new Set<string>([
      ...Object.keys(def.on),
      ...Object.values<any>(def.states).flatMap((s) => Object.keys(s.on ?? {})),
    ]);
    for (const e of used) expect(SAFETY_EVENT_TYPES).toContain(e);
  });

  it('should name the path and the problem of a misspelt guard', () => {
    const def = shipped();
    def.states.VERIFYING.on.TOOL_SUCCEEDED[0].guard = 'isWirte';
    const issues = issuesOf(def);
    expect(issues).toContainEqual({
      code: 'unknown_guard',
      path: ['states', 'VERIFYING', 'on', 'TOOL_SUCCEEDED', 0, 'guard'],
      message: 'unknown guard "isWirte"',
    });
    expect(() => createSafetyMachine(def)).toThrow(MachineDefinitionError);
    expect(() => createSafetyMachine(def)).toThrow(
      'states.VERIFYING.on.TOOL_SUCCEEDED[0].guard: unknown guard "isWirte"',
    );
  });

  it('should report every problem at once', () => {
    const def = shipped();
    def.initial = 'NOWHERE';
    def.states.READING.on.BEGIN_CALL[0].target = 'WRTING';
    def.states.READING.on.BEGIN_CALL[0].actions = ['beginCal'];
    def.states.READING.on.TOOL_SUCEEDED = [{ description: 'typo' }];
    def.states.RESOLVING.on.CHECK_TOOL[1].actions[0].params.reasonCode = 'NOPE';
    def.guards.notAGuard = { description: 'x' };
    const paths = issuesOf(def).map((i) => `${i.code} ${formatPath(i.path)}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'unknown_state initial',
        'unknown_state states.READING.on.BEGIN_CALL[0].target',
        'unknown_action states.READING.on.BEGIN_CALL[0].actions[0]',
        'unknown_event states.READING.on.TOOL_SUCEEDED',
        'invalid_params states.RESOLVING.on.CHECK_TOOL[1].actions[0].params.reasonCode',
        'unknown_guard guards.notAGuard',
      ]),
    );
  });

  it('should name shape problems with their path', () => {
    const def = shipped();
    def.states.READING.on.BEGIN_CALL = { guard: 'isWrite' };
    delete def.states.WRITING.description;
    const issues = issuesOf(def);
    expect(issues.map((i) => formatPath(i.path))).toEqual(
      expect.arrayContaining(['states.READING.on.BEGIN_CALL', 'states.WRITING.description']),
    );
    expect(issues.every((i) => i.code === 'invalid_shape')).toBe(true);
    expect(issuesOf('not a machine')[0]?.path).toEqual([]);
  });

  it('should refuse a guard or action that is used but not described, and params where none are taken', () => {
    const def = shipped();
    delete def.guards.isWrite;
    def.states.VERIFYING.on.CHECK_TOOL[0].actions[1] = { type: 'countVerifyBlock', params: { by: 2 } };
    const codes = issuesOf(def).map((i) => `${i.code} ${formatPath(i.path)}`);
    expect(codes).toContain('undescribed states.RESOLVING.on.CHECK_TOOL[1].guard');
    expect(codes).toContain('invalid_params states.VERIFYING.on.CHECK_TOOL[0].actions[1].params');
  });

  it('should run a session on an edited machine', () => {
    const def = shipped();
    // Let writes through in RESOLVING: drop the block.
    def.states.RESOLVING.on.BEGIN_CALL = [];
    const session = createSafetySession({ machine: createSafetyMachine(def) });
    expect(session.beginToolCall({ id: 'w', kind: 'write', tool: 'x' })).toBeNull();
    expect(createSafetySession().beginToolCall({ id: 'w', kind: 'write', tool: 'x' })).not.toBeNull();
  });
});
