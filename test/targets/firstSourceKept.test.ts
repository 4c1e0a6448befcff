import { createSafetySession } from 'assistant-safety';
import { describe, expect, it } from 'vitest';

/*
 * Where a validated target came from is its first source: before, a read of the user's IBAN replaced
 * "the user's words" with "tool", and the app then said the value came from the read.
 */
describe('a target validated again', () => {
  it("should keep the user's words as its source after a read names it", () => {
    const session = createSafetySession({ targets: 'bind' });
    session.userMessage('Send 20 EUR to GB29 NWBK 6016 1331 9268 19 please');
    const sourceOf = (target: string) => session.context.provenance.find((p) => p.target === target);
    const iban = 'iban:GB29NWBK60161331926819';
    session.beginToolCall({ id: 'r1', kind: 'read', tool: 'get_account', targets: [iban] });
    session.endToolCall({ id: 'r1', ok: true });
    expect(sourceOf(iban)).toMatchObject({ source: 'user' });
    expect(session.context.validatedTargets).toContain(iban);
  });

  it('should keep a discovery as the source when a person approves the same target later', () => {
    const session = createSafetySession({ targets: 'bind' });
    session.beginToolCall({ id: 'r1', kind: 'resolve', tool: 'list_vms' });
    session.endToolCall({ id: 'r1', ok: true, discovered: [{ target: 'vm:7', field: 'vms.id' }] });
    const block = session.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart', targets: ['vm:7', 'vm:8'] });
    expect(block?.reasonCode).toBe('TARGET_NOT_VALIDATED');
    expect(session.attest(block!, { by: 'alice' })).toBe(true);
    const sources = Object.fromEntries(session.context.provenance.map((p) => [p.target, p]));
    expect(sources['vm:7']).toEqual({ target: 'vm:7', source: 'discovery', tool: 'list_vms', field: 'vms.id' });
    expect(sources['vm:8']).toEqual({ target: 'vm:8', source: 'human', by: 'alice' });
  });

  it('should still move a target used again to the end, so the cap drops the least recently validated first', () => {
    const session = createSafetySession({ targets: 'bind' });
    session.targetEstablished({ targets: ['a', 'b', 'c'] });
    session.beginToolCall({ id: 'r1', kind: 'read', tool: 'get', targets: ['a'] });
    session.endToolCall({ id: 'r1', ok: true });
    expect(session.context.validatedTargets).toEqual(['b', 'c', 'a']);
    expect(session.context.provenance.map((p) => [p.target, p.source])).toEqual([
      ['b', 'user'],
      ['c', 'user'],
      ['a', 'user'],
    ]);
  });
});
