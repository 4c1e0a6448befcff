import { describe, expect, it } from 'vitest';
import { BLOCK_REASONS, BlockReasonCode, createSafetySession } from 'assistant-safety';
import { DEFAULT_ESCALATE } from 'assistant-safety/audit';

/*
 * One table of block reasons: every code has its row, and the envelope, `attest` and the audit's
 * default read it rather than lists of their own.
 */

describe('the block reasons table', () => {
  it('should have one row per reason code and nothing else', () => {
    expect(Object.keys(BLOCK_REASONS).sort()).toEqual([...BlockReasonCode.options].sort());
  });

  it('should give the envelope its reason', () => {
    const session = createSafetySession();
    const block = session.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' })!;
    expect(block.reason).toBe(BLOCK_REASONS.NO_VALIDATED_TARGET.message);
  });

  it('should decide what a person can attest', () => {
    const session = createSafetySession({ targets: 'bind' });
    const block = session.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm', targets: ['vm:1'] })!;
    expect(block.reasonCode).toBe('NO_VALIDATED_TARGET');
    expect(session.attest(block, { by: 'ops' })).toBe(true);
    expect(session.validatedTargets).toEqual(['vm:1']);
    // A write in flight cannot be attested: its row has no evidence.
    expect(session.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm', targets: ['vm:1'] })).toBeNull();
    const inFlight = session.beginToolCall({ id: 'w2', kind: 'write', tool: 'restart_vm', targets: ['vm:1'] })!;
    expect(inFlight.reasonCode).toBe('WRITE_IN_FLIGHT');
    expect(BLOCK_REASONS.WRITE_IN_FLIGHT).not.toHaveProperty('evidence');
    expect(session.attest(inFlight, { by: 'ops' })).toBe(false);
  });

  it("should be the audit's default escalations", () => {
    const escalating = (Object.keys(BLOCK_REASONS) as BlockReasonCode[]).filter((c) => BLOCK_REASONS[c].escalates);
    expect([...DEFAULT_ESCALATE].sort()).toEqual(escalating.sort());
    expect(DEFAULT_ESCALATE).toContain('EGRESS_NOT_VALIDATED');
    expect(DEFAULT_ESCALATE).not.toContain('FINAL_ANSWER_UNVERIFIED');
  });
});
