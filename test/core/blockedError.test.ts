import { describe, expect, it } from 'vitest';
import {
  createSafetySession,
  ErrCodeFSMBlocked,
  FSMBlockedError,
  pulseRules,
  type SafetySession,
} from 'assistant-safety';

function blocks() {
  const s = createSafetySession();
  const NO_VALIDATED_TARGET = s.beginToolCall({ id: 'a', kind: 'write', tool: 'pulse_control' })!;
  s.targetEstablished();
  s.beginToolCall({ id: 'w', kind: 'write', tool: 'pulse_control' });
  const WRITE_IN_FLIGHT = s.beginToolCall({ id: 'b', kind: 'write', tool: 'pulse_run_command' })!;
  const FINAL_IN_FLIGHT = s.canFinalAnswer()!;
  s.endToolCall({ id: 'w', ok: true });
  const UNVERIFIED_WRITE = s.canExecuteTool('write', 'pulse_control')!;
  const FINAL_ANSWER_UNVERIFIED = s.canFinalAnswer()!;
  const all: FSMBlockedError[] = [
    NO_VALIDATED_TARGET,
    WRITE_IN_FLIGHT,
    FINAL_IN_FLIGHT,
    UNVERIFIED_WRITE,
    FINAL_ANSWER_UNVERIFIED,
  ];
  for (const e of all) expect(e).toBeInstanceOf(FSMBlockedError);
  return { NO_VALIDATED_TARGET, WRITE_IN_FLIGHT, FINAL_IN_FLIGHT, UNVERIFIED_WRITE, FINAL_ANSWER_UNVERIFIED };
}

describe('FSMBlockedError', () => {
  it('should carry every reason code with state, tool and kind', () => {
    const b = blocks();
    expect(b.NO_VALIDATED_TARGET).toMatchObject({
      reasonCode: 'NO_VALIDATED_TARGET',
      state: 'RESOLVING',
      toolName: 'pulse_control',
      toolKind: 'write',
    });
    expect(b.WRITE_IN_FLIGHT).toMatchObject({
      reasonCode: 'WRITE_IN_FLIGHT',
      state: 'WRITING',
      toolName: 'pulse_run_command',
    });
    expect(b.UNVERIFIED_WRITE).toMatchObject({ reasonCode: 'UNVERIFIED_WRITE', state: 'VERIFYING' });
    expect(b.FINAL_ANSWER_UNVERIFIED).toMatchObject({ reasonCode: 'FINAL_ANSWER_UNVERIFIED', state: 'VERIFYING' });
    expect(b.FINAL_IN_FLIGHT).toMatchObject({ reasonCode: 'FINAL_ANSWER_UNVERIFIED', state: 'WRITING' });
    for (const e of Object.values(b)) {
      expect(e).toBeInstanceOf(FSMBlockedError);
      expect(e).toBeInstanceOf(Error);
      expect(e.code).toBe(ErrCodeFSMBlocked);
      expect(e.recoverable).toBe(true);
      expect(e.reason.startsWith('POLICY_BLOCKED:')).toBe(true);
    }
    expect(b.FINAL_ANSWER_UNVERIFIED.toolName).toBeUndefined();
    expect(b.FINAL_ANSWER_UNVERIFIED.toolKind).toBeUndefined();
  });

  it('should format the message with and without a tool', () => {
    const b = blocks();
    expect(b.NO_VALIDATED_TARGET.message).toBe(
      `FSM blocked tool 'pulse_control' (write) in state RESOLVING: ${b.NO_VALIDATED_TARGET.reason}`,
    );
    expect(b.FINAL_ANSWER_UNVERIFIED.message).toBe(
      `FSM blocked in state VERIFYING: ${b.FINAL_ANSWER_UNVERIFIED.reason}`,
    );
  });

  it('should never name a tool in a reason', () => {
    const toolNames = [...Object.keys(pulseRules.tools), 'pulse_control', 'pulse_run_command'];
    for (const e of Object.values(blocks())) {
      for (const name of toolNames) expect(e.reason).not.toContain(name);
      expect(e.reason).not.toMatch(/\bcall\s+\w+_\w+/i);
    }
  });

  it('should serialise to the stable envelope with string or boolean details', () => {
    const e = blocks().UNVERIFIED_WRITE;
    const json = JSON.parse(JSON.stringify(e));
    expect(json).toEqual({
      error: 'FSM_BLOCKED',
      message: e.message,
      details: {
        state: 'VERIFYING',
        reasonCode: 'UNVERIFIED_WRITE',
        reason: e.reason,
        recoverable: true,
        required: 'verification_read',
        consecutiveBlocks: '3', // the in-flight write and final answer blocks before it count too
        toolName: 'pulse_control',
        toolKind: 'write',
      },
    });
    for (const v of Object.values(json.details)) expect(['string', 'boolean']).toContain(typeof v);
  });

  it('should say what evidence is missing for each block', () => {
    const b = blocks();
    expect(b.NO_VALIDATED_TARGET.toJSON().details.required).toBe('validated_target');
    expect(b.WRITE_IN_FLIGHT.toJSON().details.required).toBe('write_result');
    expect(b.FINAL_IN_FLIGHT.toJSON().details.required).toBe('write_result');
    expect(b.UNVERIFIED_WRITE.toJSON().details.required).toBe('verification_read');
    expect(b.FINAL_ANSWER_UNVERIFIED.toJSON().details.required).toBe('verification_read');
  });

  it('should count consecutive blocks and restart after an allowed call', () => {
    const s: SafetySession = createSafetySession();
    s.onToolSuccess('write', 'x');
    expect(s.canExecuteTool('write', 'x')?.consecutiveBlocks).toBe(1);
    expect(s.canExecuteTool('write', 'x')?.consecutiveBlocks).toBe(2);
    expect(s.canFinalAnswer()?.toJSON().details.consecutiveBlocks).toBe('3');
    expect(s.canExecuteTool('read', 'logs')).toBeNull();
    expect(s.canExecuteTool('write', 'x')?.consecutiveBlocks).toBe(1);
  });
});
