import { describe, expect, it } from 'vitest';
import {
  createMemoryRecorder,
  createSafetySession,
  replayRecording,
  type SafetySession,
  type ToolCallStart,
} from 'assistant-safety';

type Step = { begin: ToolCallStart; ok?: boolean } | { final: true };

/** A scripted agent: some writes without discovery, a second write before verifying, a final answer. */
const script: Step[] = [
  { begin: { id: 'w0', kind: 'write', tool: 'restart_vm', targets: ['vm:1'] } },
  { begin: { id: 'r1', kind: 'read', tool: 'get_vm', targets: ['vm:1'] } },
  { begin: { id: 'w1', kind: 'write', tool: 'restart_vm', targets: ['vm:1'] } },
  { begin: { id: 'w2', kind: 'write', tool: 'stop_vm', targets: ['vm:1'] } },
  { begin: { id: 'r2', kind: 'read', tool: 'get_vm', targets: ['vm:2'] } },
  { final: true },
];

function run(s: SafetySession) {
  const decisions: (string | null)[] = [];
  for (const step of script) {
    if ('final' in step) {
      decisions.push(s.canFinalAnswer()?.reasonCode ?? null);
      continue;
    }
    const blocked = s.beginToolCall(step.begin);
    decisions.push(blocked?.reasonCode ?? null);
    if (!blocked) s.endToolCall({ id: step.begin.id, ok: step.ok ?? true });
  }
  return decisions;
}

describe('shadow mode', () => {
  it('should let every call run and record the would-be blocks, first one equal to enforce mode', () => {
    const enforce = run(createSafetySession({ targets: 'bind' }));
    const recorder = createMemoryRecorder();
    const shadow = createSafetySession({ targets: 'bind', mode: 'shadow', recorder });
    expect(run(shadow)).toEqual(script.map(() => null));
    const wouldBlock = recorder.entries.filter((e) => e.wouldBlock !== undefined);
    const firstEnforced = enforce.findIndex((d) => d !== null);
    expect(enforce[firstEnforced]).toBe('NO_VALIDATED_TARGET');
    expect(wouldBlock[0]!.wouldBlock).toBe(enforce[firstEnforced]);
    expect(wouldBlock[0]!.call).toMatchObject({ id: 'w0' });
    expect(wouldBlock.every((e) => e.decision === 'allowed')).toBe(true);
  });

  it('should apply what an ungated call did, so the next decision is the one enforcement would make from there', () => {
    const s = createSafetySession({ mode: 'shadow' });
    // A write before any discovery runs in shadow mode and lands: the session must now verify it.
    expect(s.beginToolCall({ id: 'w0', kind: 'write', tool: 'restart_vm' })).toBeNull();
    expect(s.state).toBe('RESOLVING');
    s.endToolCall({ id: 'w0', ok: true });
    expect(s.state).toBe('VERIFYING');
    expect(s.lastWriteTool).toBe('restart_vm');
    const recorder = createMemoryRecorder();
    const t = createSafetySession({ mode: 'shadow', recorder });
    t.beginToolCall({ id: 'w0', kind: 'write', tool: 'restart_vm' });
    t.endToolCall({ id: 'w0', ok: false });
    expect(t.state).toBe('RESOLVING');
    expect(t.context.shadowCalls).toEqual({});
    t.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
    t.endToolCall({ id: 'w1', ok: false, unknown: true });
    expect(t.state).toBe('VERIFYING');
    expect(replayRecording(JSON.parse(JSON.stringify(recorder.entries))).divergences).toEqual([]);
  });

  it('should keep a real write in flight when an ungated write lands beside it', () => {
    const s = createSafetySession({ mode: 'shadow' });
    s.targetEstablished();
    expect(s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' })).toBeNull();
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })).toBeNull();
    s.endToolCall({ id: 'w2', ok: true });
    expect(s.state).toBe('WRITING');
    expect(s.inFlightWrite?.id).toBe('w1');
    s.endToolCall({ id: 'w1', ok: true });
    expect(s.state).toBe('VERIFYING');
  });

  it('should allow the final answer and record that enforcement would not have', () => {
    const recorder = createMemoryRecorder();
    const s = createSafetySession({ mode: 'shadow', recorder });
    s.onToolSuccess('write', 'restart_vm');
    expect(s.canFinalAnswer()).toBeNull();
    expect(recorder.entries.at(-1)).toMatchObject({ decision: 'allowed', wouldBlock: 'FINAL_ANSWER_UNVERIFIED' });
  });
});
