import { describe, expect, it } from 'vitest';
import { applyMachineEdit } from '../../src/editor/MachineEdit.js';
import { emptyLayout } from '../../src/editor/MachineLayout.js';
import { createMemoryRecorder, createSafetySession } from '../../src/index.js';
import { decisionChanges } from '../../viz/editor/model/decisionChanges.js';
import { RESOLVING_WRITE, shippedDefinition } from './fixtures.js';

function writeBeforeDiscovery() {
  let t = 0;
  const recorder = createMemoryRecorder();
  const s = createSafetySession({ id: 's1', now: () => (t += 1000), recorder });
  s.beginToolCall({ id: 'c1', kind: 'write', tool: 'restart_vm' }); // blocked: NO_VALIDATED_TARGET
  s.beginToolCall({ id: 'c2', kind: 'read', tool: 'find_vm' });
  s.endToolCall({ id: 'c2', ok: true });
  return recorder.entries;
}

describe('recorded decisions under an edited machine', () => {
  it('should list nothing for the machine the recording was made with', () => {
    expect(decisionChanges(writeBeforeDiscovery(), shippedDefinition())).toEqual([]);
  });

  it('should list each recorded decision the edit changes, with what it was and what it becomes', () => {
    const { definition } = applyMachineEdit(
      { definition: shippedDefinition(), layout: emptyLayout() },
      { type: 'removeTransition', at: RESOLVING_WRITE },
    );
    expect(decisionChanges(writeBeforeDiscovery(), definition)).toEqual([
      {
        session: 's1',
        seq: 1,
        call: 'beginToolCall write restart_vm',
        recorded: 'blocked (NO_VALIDATED_TARGET)',
        now: 'allowed',
      },
    ]);
  });
});
