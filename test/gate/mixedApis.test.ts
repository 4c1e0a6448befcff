import { createMemoryRecorder, createSafetySession, replayRecording } from 'assistant-safety';
import { describe, expect, it } from 'vitest';

/** Issue 16 item 1: a compatible-API write must not end or forget a lifecycle write in flight. */
describe('mixing the compatible and the call-lifecycle APIs', () => {
  function writing() {
    const recorder = createMemoryRecorder();
    const s = createSafetySession({ recorder });
    s.targetEstablished();
    expect(s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' })).toBeNull();
    expect(s.state).toBe('WRITING');
    return { s, recorder };
  }

  it('should keep a lifecycle write in flight when onToolSuccess reports another write', () => {
    const { s } = writing();
    s.onToolSuccess('write', 'other_tool');
    expect(s.state).toBe('WRITING');
    expect(s.inFlightWrite?.id).toBe('w1');
    expect(s.lastWriteTool).toBe('other_tool');
    expect(s.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })?.reasonCode).toBe('WRITE_IN_FLIGHT');
  });

  it('should not let a read begun before the lifecycle write lands verify it', () => {
    const { s, recorder } = writing();
    s.onToolSuccess('write', 'other_tool');
    expect(s.beginToolCall({ id: 'r', kind: 'read', tool: 'get_vm' })).toBeNull();
    s.endToolCall({ id: 'w1', ok: true }); // the real landing
    expect(s.state).toBe('VERIFYING');
    expect(s.lastWriteTool).toBe('restart_vm');
    s.endToolCall({ id: 'r', ok: true });
    expect(s.readAfterWrite).toBe(false);
    expect(s.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    expect(replayRecording(recorder.entries).divergences).toEqual([]);
  });

  it('should not admit a second write after reads while the lifecycle write is still in flight', () => {
    const { s } = writing();
    s.onToolSuccess('write', 'other_tool');
    expect(s.beginToolCall({ id: 'r', kind: 'read', tool: 'get_vm' })).toBeNull();
    s.endToolCall({ id: 'r', ok: true });
    s.completeVerification();
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })?.reasonCode).toBe('WRITE_IN_FLIGHT');
  });

  it('should still require verification when the lifecycle write then fails, because the compatible write landed', () => {
    const { s } = writing();
    s.onToolSuccess('write', 'other_tool');
    s.endToolCall({ id: 'w1', ok: false });
    expect(s.state).toBe('VERIFYING');
    expect(s.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })?.reasonCode).toBe('UNVERIFIED_WRITE');
    expect(s.beginToolCall({ id: 'r', kind: 'read', tool: 'get_vm' })).toBeNull();
    s.endToolCall({ id: 'r', ok: true });
    expect(s.readAfterWrite).toBe(true);
  });

  it('should restore a session persisted between the two writes and go on the same way', async () => {
    const { s } = writing();
    s.onToolSuccess('write', 'other_tool');
    const { restoreSafetySession } = await import('assistant-safety');
    const again = restoreSafetySession(JSON.parse(JSON.stringify(s.persist())));
    expect(again.state).toBe('WRITING');
    again.endToolCall({ id: 'w1', ok: true });
    expect(again.state).toBe('VERIFYING');
  });
});
