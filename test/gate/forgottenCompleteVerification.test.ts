import { createSafetySession, createToolLoop } from 'assistant-safety';
import { describe, expect, it } from 'vitest';

const WARNING =
  'a write was blocked although a read after the last write landed: a bare session completes the verification only when completeVerification() is called (finishToolCall() calls it as the read ends, as the tool loop and the integrations do); see docs/behaviour.md';

/*
 * A bare session leaves completing a verification to its caller. A caller that forgets gets a block
 * the model cannot clear (the evidence is in), so the session says once whose step it is.
 */
describe('a verification the caller forgot to complete', () => {
  it('should warn once when a write is blocked with the evidence in, and not before', () => {
    const warnings: string[] = [];
    const s = createSafetySession({ onWarning: (m) => warnings.push(m) });
    s.beginToolCall({ id: 'f', kind: 'resolve', tool: 'find_vm' });
    s.endToolCall({ id: 'f', ok: true });
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    s.endToolCall({ id: 'w', ok: true });
    // No evidence yet: the block is the model's to clear, nothing to say to the caller.
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool: 'restart_vm' })?.reasonCode).toBe('UNVERIFIED_WRITE');
    expect(warnings).toEqual([]);
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'vm_status' });
    s.endToolCall({ id: 'r', ok: true });
    for (const id of ['w3', 'w4']) {
      expect(s.beginToolCall({ id, kind: 'write', tool: 'restart_vm' })?.reasonCode).toBe('UNVERIFIED_WRITE');
    }
    expect(warnings).toEqual([WARNING]);
    s.completeVerification();
    expect(s.beginToolCall({ id: 'w5', kind: 'write', tool: 'restart_vm' })).toBeNull();
  });

  it('should stay quiet under the tool loop, which completes the verification itself', async () => {
    const warnings: string[] = [];
    const session = createSafetySession({ onWarning: (m) => warnings.push(m) });
    const kinds: Record<string, 'resolve' | 'write' | 'read'> = {
      find_vm: 'resolve',
      restart_vm: 'write',
      vm_status: 'read',
    };
    const loop = createToolLoop({ session, execute: async () => 'ok', classify: (name) => kinds[name]! });
    await loop.runBatch([{ id: 'f', name: 'find_vm' }]);
    await loop.runBatch([{ id: 'w', name: 'restart_vm' }]);
    await loop.runBatch([{ id: 'r', name: 'vm_status' }]);
    expect((await loop.runBatch([{ id: 'w2', name: 'restart_vm' }]))[0]!.status).toBe('ok');
    expect(warnings).toEqual([]);
  });
});
