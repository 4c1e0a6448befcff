import { describe, expect, it } from 'vitest';
import {
  APPROVAL_TTL_MS,
  callDigest,
  createClassifier,
  createMemoryRecorder,
  createSafetySession,
  replayRecording,
  type FSMBlockedError,
  type SafetySession,
} from 'assistant-safety';

function call(s: SafetySession, id: string, kind: 'resolve' | 'read' | 'write', tool: string, targets?: string[]) {
  const blocked = s.beginToolCall({ id, kind, tool, ...(targets && { targets }) });
  if (!blocked) s.endToolCall({ id, ok: true });
  return blocked;
}

describe('attestation: a person supplies the evidence a block asked for', () => {
  it('should attest a missing target for that call only, after which the same call is allowed by the machine', () => {
    const s = createSafetySession();
    const blocked = s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' })!;
    expect(blocked.reasonCode).toBe('NO_VALIDATED_TARGET');
    expect(s.attest(blocked, { by: 'alice', note: 'vm-101 is the one' })).toBe(true);
    // The answer is for the call the person saw: no target was established for any other call.
    expect(s.state).toBe('RESOLVING');
    expect(s.beginToolCall({ id: 'x1', kind: 'write', tool: 'delete_vm' })?.reasonCode).toBe('NO_VALIDATED_TARGET');
    expect(s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' })).toBeNull();
    expect(s.state).toBe('WRITING');
  });

  it('should attest exactly the targets a TARGET_NOT_VALIDATED block named', () => {
    const s = createSafetySession({ targets: 'bind' });
    call(s, 'r1', 'read', 'get_vm', ['vm:1']);
    const blocked = s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm', targets: ['vm:1', 'vm:2'] })!;
    expect(blocked.reasonCode).toBe('TARGET_NOT_VALIDATED');
    expect(blocked.targets).toEqual(['vm:2']);
    expect(s.attest(blocked, { by: 'alice' })).toBe(true);
    expect(s.validatedTargets).toEqual(['vm:1', 'vm:2']);
    expect(s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm', targets: ['vm:1', 'vm:2'] })).toBeNull();
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool: 'restart_vm', targets: ['vm:3'] })).not.toBeNull();
  });

  it('should approve a write whose target argument is missing for those arguments only', () => {
    const classify = createClassifier({ tools: { send_money: { kind: 'write', targets: ['to'], prefix: 'iban:' } } });
    const start = (id: string, args: Record<string, unknown>) => ({
      id,
      tool: 'send_money',
      ...classify.describe('send_money', args),
      digest: callDigest({ tool: 'send_money', args }),
    });
    const s = createSafetySession({ targets: 'bind' });
    call(s, 'r1', 'read', 'get_account', ['account:me']);
    const blocked = s.beginToolCall(start('w1', { amount: 5 }))!;
    expect(blocked.reasonCode).toBe('TARGET_NOT_VALIDATED');
    expect(s.attest(blocked, { by: 'alice' })).toBe(true);
    // The placeholder the person approved is this call's: another call that leaves the recipient out is asked again.
    expect(s.beginToolCall(start('w2', { amount: 500 }))?.reasonCode).toBe('TARGET_NOT_VALIDATED');
    expect(s.beginToolCall(start('w1', { amount: 5 }))).toBeNull();
  });

  it('should attest an unverified write for the blocked call only, once', () => {
    const s = createSafetySession();
    call(s, 'r1', 'read', 'get_vm');
    call(s, 'w1', 'write', 'restart_vm');
    const blocked = s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })!;
    expect(blocked.reasonCode).toBe('UNVERIFIED_WRITE');
    expect(s.attest(blocked, { by: 'bob' })).toBe(true);
    expect(s.state).toBe('VERIFYING');
    // Another call never inherits the answer.
    expect(s.beginToolCall({ id: 'x2', kind: 'write', tool: 'delete_vm' })?.reasonCode).toBe('UNVERIFIED_WRITE');
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })).toBeNull();
    s.endToolCall({ id: 'w2', ok: true });
    // Used once: the same call again waits for its own verification.
    expect(s.beginToolCall({ id: 'w3', kind: 'write', tool: 'stop_vm' })?.reasonCode).toBe('UNVERIFIED_WRITE');
  });

  it('should bind an approval to the call digest given by the caller (its arguments)', () => {
    const s = createSafetySession();
    call(s, 'r1', 'read', 'get_vm');
    call(s, 'w1', 'write', 'restart_vm');
    const a = callDigest({ tool: 'scale', args: { replicas: 3 } });
    const b = callDigest({ tool: 'scale', args: { replicas: 300 } });
    const blocked = s.beginToolCall({ id: 'w2', kind: 'write', tool: 'scale', digest: a })!;
    expect(blocked.digest).toBe(a);
    expect(s.attest(blocked, { by: 'bob' })).toBe(true);
    expect(s.beginToolCall({ id: 'w3', kind: 'write', tool: 'scale', digest: b })?.reasonCode).toBe('UNVERIFIED_WRITE');
    expect(s.beginToolCall({ id: 'w4', kind: 'write', tool: 'scale', digest: a })).toBeNull();
  });

  it('should let an approval lapse after its time', () => {
    let t = 0;
    const s = createSafetySession({ now: () => t });
    call(s, 'r1', 'read', 'get_vm');
    call(s, 'w1', 'write', 'restart_vm');
    const blocked = s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })!;
    s.attest(blocked, { by: 'bob' });
    t += APPROVAL_TTL_MS + 1;
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })?.reasonCode).toBe('UNVERIFIED_WRITE');
  });

  it('should allow the final answer after an attested verification', () => {
    const s = createSafetySession();
    call(s, 'r1', 'read', 'get_vm');
    call(s, 'w1', 'write', 'restart_vm');
    const blocked = s.canFinalAnswer()!;
    expect(blocked.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    expect(s.attest(blocked, { by: 'bob' })).toBe(true);
    expect(s.canFinalAnswer()).toBeNull();
  });

  it('should never attest a write in flight, nor a final answer while a write is in flight', () => {
    const s = createSafetySession();
    call(s, 'r1', 'read', 'get_vm');
    s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
    const second = s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })!;
    expect(second.reasonCode).toBe('WRITE_IN_FLIGHT');
    expect(s.attest(second, { by: 'bob' })).toBe(false);
    const answer = s.canFinalAnswer()!;
    expect(s.attest(answer, { by: 'bob' })).toBe(false);
    expect(s.state).toBe('WRITING');
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })?.reasonCode).toBe('WRITE_IN_FLIGHT');
  });

  it('should refuse evidence nothing is missing, changing nothing', () => {
    const s = createSafetySession();
    call(s, 'r1', 'read', 'get_vm');
    call(s, 'w1', 'write', 'restart_vm');
    const stale = s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })!;
    call(s, 'r2', 'read', 'get_vm');
    s.completeVerification();
    const before = s.persist();
    expect(s.attest(stale, { by: 'bob' })).toBe(false);
    expect(s.persist()).toEqual(before);
  });

  it('should name a bad attestation', () => {
    const s = createSafetySession();
    const blocked = s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' })!;
    expect(() => s.attest(blocked, { by: '' })).toThrow(/attestation\.by/);
    expect(() => s.attest({ reasonCode: 'NOPE' } as unknown as FSMBlockedError, { by: 'a' })).toThrow(
      /block\.reasonCode/,
    );
    expect(s.state).toBe('RESOLVING');
  });

  it('should record who attested, when and why, and replay with no divergence', () => {
    const recorder = createMemoryRecorder();
    let t = 1000;
    const s = createSafetySession({ recorder, targets: 'bind', now: () => (t += 5) });
    call(s, 'r1', 'read', 'get_vm', ['vm:1']);
    const blocked = s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm', targets: ['vm:2'] })!;
    s.attest(blocked, { by: 'alice', note: 'approved in chat' });
    call(s, 'w1', 'write', 'restart_vm', ['vm:2']);
    s.attest(s.canFinalAnswer()!, { by: 'alice' });
    const attests = recorder.entries.filter((e) => e.call.type === 'attest');
    expect(attests.map((e) => e.call)).toEqual([
      {
        type: 'attest',
        reasonCode: 'TARGET_NOT_VALIDATED',
        evidence: 'target',
        targets: ['vm:2'],
        by: 'alice',
        note: 'approved in chat',
        digest: blocked.digest,
      },
      { type: 'attest', reasonCode: 'FINAL_ANSWER_UNVERIFIED', evidence: 'verification', by: 'alice' },
    ]);
    expect(attests.every((e) => e.decision === 'applied' && typeof e.at === 'number')).toBe(true);
    const replay = replayRecording(JSON.parse(JSON.stringify(recorder.entries)));
    expect(replay.divergences).toEqual([]);
  });
});
