import { describe, expect, it } from 'vitest';
import { applyMachineEdit } from '../../src/editor/MachineEdit.js';
import { emptyLayout } from '../../src/editor/MachineLayout.js';
import { checkMachine } from '../../viz/editor/model/checkMachine.js';
import { RESOLVING_WRITE, shippedDefinition } from './fixtures.js';

describe('checking an edited machine', () => {
  it('should find no violation in the shipped machine', () => {
    const check = checkMachine(shippedDefinition());
    expect(check.ok && check.report.violations).toEqual([]);
    expect(check.ok && check.report.configurations).toBeGreaterThan(100);
  });

  it('should report a write allowed without a target as I1, with a shortest counterexample the diagram can play', () => {
    const { definition } = applyMachineEdit(
      { definition: shippedDefinition(), layout: emptyLayout() },
      { type: 'removeTransition', at: RESOLVING_WRITE },
    );
    const check = checkMachine(definition);
    if (!check.ok) throw new Error('expected a well-formed machine');
    const i1 = check.report.violations.find((v) => v.id === 'I1')!;
    expect(i1.name).toBe('No write without a validated target');
    const last = i1.steps.at(-1)!;
    expect(last).toMatchObject({ from: 'RESOLVING', decision: 'allowed', transition: '*.BEGIN_CALL[1]' });
    expect(last.text).toMatch(/^RESOLVING · begin write → allowed/);
    // Plain data: it crosses from the worker by structured clone.
    expect(structuredClone(check.report)).toEqual(check.report);
  });

  it('should report a malformed machine by its validation issues, unchecked', () => {
    const definition = shippedDefinition();
    definition.states.READING!.on!.BEGIN_CALL![0]!.guard = 'isWirte';
    const check = checkMachine(definition);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.issues).toEqual([
      expect.objectContaining({ path: ['states', 'READING', 'on', 'BEGIN_CALL', 0, 'guard'], code: 'unknown_guard' }),
    ]);
  });
});
