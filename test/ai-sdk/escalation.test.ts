import {
  generateText,
  stepCountIs,
  streamText,
  ToolLoopAgent,
  type ModelMessage,
  type ToolApprovalResponse,
  type ToolSet,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { replayRecording, type BlockReasonCode } from 'assistant-safety';
import { guardModel, guardToolApproval, guardTools } from 'assistant-safety/ai-sdk';
import { find, fixture, restart, scriptedModel, status, stop, type Turn } from './script.js';

type Mode = 'generateText' | 'streamText' | 'ToolLoopAgent';

/** One call of the mode's API on the whole conversation so far: what the caller sees. */
async function call(mode: Mode, settings: Record<string, unknown>, messages: ModelMessage[]) {
  const s = settings as Parameters<typeof generateText>[0];
  if (mode === 'generateText') {
    const r = await generateText({ ...s, messages } as Parameters<typeof generateText>[0]);
    return { content: r.content, messages: r.response.messages, text: r.text };
  }
  if (mode === 'streamText') {
    const r = streamText({ ...s, messages } as Parameters<typeof streamText>[0]);
    await r.consumeStream();
    return { content: await r.content, messages: (await r.response).messages, text: await r.text };
  }
  const agent = new ToolLoopAgent<never, ToolSet>(
    settings as ConstructorParameters<typeof ToolLoopAgent<never, ToolSet>>[0],
  );
  const r = await agent.generate({ messages } as Parameters<typeof agent.generate>[0]);
  return { content: r.content, messages: r.response.messages, text: r.text };
}

/** Discovery, one write, then a second write before verifying: blocked `UNVERIFIED_WRITE`. */
const script: Turn[] = [{ calls: [find('c1')] }, { calls: [restart('w1')] }, { calls: [stop('w2')] }];
const after: Turn[] = [{ calls: [status('r1')] }, { text: 'web-01 was stopped and is checked.' }];

// A readonly list (`['UNVERIFIED_WRITE'] as const`, as the docs write it) is accepted as it is.
async function start(mode: Mode, escalate: readonly BlockReasonCode[]) {
  const f = fixture();
  const mock = scriptedModel([...script, ...after]);
  const guard = { session: f.session, classify: f.classify, escalate };
  const tools: ToolSet = guardTools(f.tools, guard);
  const settings = {
    model: guardModel(mock, { session: f.session }),
    tools,
    stopWhen: stepCountIs(10),
  };
  const messages: ModelMessage[] = [{ role: 'user', content: 'Restart web-01, then stop it.' }];
  const first = await call(mode, settings, messages);
  messages.push(...first.messages);
  const answer = async (approved: boolean, reason?: string) => {
    const request = first.content.find((p) => p.type === 'tool-approval-request');
    if (!request || request.type !== 'tool-approval-request') throw new Error('expected an approval request');
    const response: ToolApprovalResponse = {
      type: 'tool-approval-response',
      approvalId: request.approvalId,
      approved,
      ...(reason !== undefined && { reason }),
    };
    messages.push({ role: 'tool', content: [response] });
    return call(mode, settings, messages);
  };
  const prompts = () => (mode === 'streamText' ? mock.doStreamCalls : mock.doGenerateCalls).map((c) => c.prompt);
  return { ...f, first, answer, prompts, why: guardToolApproval(guard) };
}

describe.each<Mode>(['generateText', 'streamText', 'ToolLoopAgent'])('escalation through the AI SDK (%s)', (mode) => {
  it('should ask a person for an escalated block, and run the call once when approved', async () => {
    const s = await start(mode, ['UNVERIFIED_WRITE']);
    const request = s.first.content.find((p) => p.type === 'tool-approval-request');
    expect(request).toMatchObject({ toolCall: { toolCallId: 'w2' } });
    const why = s.why(request as Parameters<typeof s.why>[0]);
    expect(why).toMatchObject({ type: 'user-approval' });
    expect((why as { reason: string }).reason).toContain('the previous write has not been verified');
    expect(s.runs).toEqual(['find_vm web-01', 'restart_vm web-01']);
    expect(s.session.state).toBe('VERIFYING'); // asking is not a block: nothing recorded or counted
    expect(s.recorder.entries.filter((e) => e.decision === 'blocked')).toEqual([]);

    const second = await s.answer(true, 'checked the console myself');
    expect(s.runs).toEqual(['find_vm web-01', 'restart_vm web-01', 'stop_vm web-01', 'get_vm_status web-01']);
    const attest = s.recorder.entries.find((e) => e.call.type === 'attest');
    expect(attest?.call).toMatchObject({
      reasonCode: 'UNVERIFIED_WRITE',
      by: 'ai-sdk:tool-approval',
      note: 'checked the console myself',
    });
    expect(second.text).toBe('web-01 was stopped and is checked.');
    expect(s.session.state).toBe('READING');
    expect(replayRecording(s.recorder.entries).divergences).toEqual([]);
  });

  it('should show the model the block when the person denies, and never run the call', async () => {
    const s = await start(mode, ['UNVERIFIED_WRITE']);
    await s.answer(false, 'not now');
    expect(s.runs).toEqual(['find_vm web-01', 'restart_vm web-01', 'get_vm_status web-01']);
    const denied = JSON.stringify(s.prompts()[3]!.filter((m) => m.role === 'tool'));
    expect(denied).toContain('execution-denied');
    expect(denied).toContain('not now');
    expect(denied).toContain('UNVERIFIED_WRITE');
    expect(s.recorder.entries.some((e) => e.call.type === 'attest')).toBe(false);
  });

  it('should not ask about a block that is not escalated: the model reads the envelope', async () => {
    const s = await start(mode, ['TARGET_NOT_VALIDATED']);
    expect(s.first.content.some((p) => p.type === 'tool-approval-request')).toBe(false);
    expect(s.runs).toEqual(['find_vm web-01', 'restart_vm web-01', 'get_vm_status web-01']);
    const blocked = JSON.stringify(s.prompts()[3]!.filter((m) => m.role === 'tool'));
    expect(blocked).toContain('FSM_BLOCKED');
    expect(blocked).toContain('UNVERIFIED_WRITE');
    expect(s.recorder.entries.filter((e) => e.decision === 'blocked').map((e) => e.reasonCode)).toEqual([
      'UNVERIFIED_WRITE',
    ]);
    expect(s.first.text).toBe('web-01 was stopped and is checked.');
  });

  it('should tell why a person is asked, and that approving a block outside escalate lifts nothing', async () => {
    const s = await start(mode, ['UNVERIFIED_WRITE']);
    const request = s.first.content.find((p) => p.type === 'tool-approval-request')!;
    const strict = guardToolApproval({ session: s.session, classify: s.classify, escalate: [] });
    const why = strict(request as Parameters<typeof strict>[0]);
    expect(why).toMatchObject({ type: 'denied' });
    expect(JSON.parse((why as { reason: string }).reason)).toMatchObject({
      details: { reasonCode: 'UNVERIFIED_WRITE' },
    });
    const read = { toolCall: { toolCallId: 'r9', toolName: 'get_vm_status', input: { name: 'web-01' } } };
    expect(s.why(read)).toBe('not-applicable');
    expect(s.recorder.entries.filter((e) => e.decision === 'blocked')).toEqual([]); // asking records nothing
  });
});

describe('guardTools with escalate and a tool that asks by itself', () => {
  it("should keep the tool's own needsApproval, and ask for an escalated block as well", async () => {
    const f = fixture();
    const guard = { session: f.session, classify: f.classify, escalate: ['UNVERIFIED_WRITE' as const] };
    const own = { ...f.tools.find_vm, needsApproval: async (input: { name: string }) => input.name === 'db-01' };
    const tools = guardTools({ ...f.tools, find_vm: own }, guard);
    type Asks = { needsApproval: (input: unknown, options: unknown) => Promise<boolean> };
    const ask = (name: string, input: unknown, toolCallId: string, messages: unknown[] = []) =>
      (tools[name as keyof typeof tools] as Asks).needsApproval(input, { toolCallId, messages });
    expect(await ask('find_vm', { name: 'db-01' }, 'c1')).toBe(true); // the tool's own question
    expect(await ask('find_vm', { name: 'web-01' }, 'c2')).toBe(false);
    f.session.targetEstablished();
    f.session.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
    f.session.endToolCall({ id: 'w1', ok: true });
    expect(await ask('stop_vm', { name: 'web-01' }, 'w2')).toBe(true); // UNVERIFIED_WRITE, escalated
    expect(await ask('get_vm_status', { name: 'web-01' }, 'r1')).toBe(false); // allowed
    const asked = [
      { role: 'assistant', content: [{ type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'r2' }] },
    ];
    expect(await ask('get_vm_status', { name: 'web-01' }, 'r2', asked)).toBe(true); // asked before: still yes
    expect(f.recorder.entries.filter((e) => e.decision === 'blocked')).toEqual([]); // asking records nothing
  });
});
