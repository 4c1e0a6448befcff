import { generateText, stepCountIs, type ModelMessage, type ToolApprovalResponse } from 'ai';
import { describe, expect, it } from 'vitest';
import { replayRecording } from 'assistant-safety';
import { guardModel, guardTools } from 'assistant-safety/ai-sdk';
import { find, fixture, restart, scriptedModel, status, type Turn } from './script.js';

const script: Turn[] = [
  { calls: [find('c1')] },
  { calls: [restart('w1')] }, // needs a human's approval
  { calls: [status('r1')] },
  { text: 'web-01 was restarted and is running.' },
];

async function askForApproval(turns = script) {
  const f = fixture();
  const mock = scriptedModel(turns);
  const settings = {
    model: guardModel(mock, { session: f.session }),
    tools: guardTools(
      { ...f.tools, restart_vm: { ...f.tools.restart_vm, needsApproval: true } },
      { session: f.session, classify: f.classify },
    ),
    stopWhen: stepCountIs(10),
  };
  const messages: ModelMessage[] = [{ role: 'user', content: 'Restart web-01.' }];
  const first = await generateText({ ...settings, messages });
  const request = first.content.find((p) => p.type === 'tool-approval-request');
  if (!request || request.type !== 'tool-approval-request') throw new Error('expected an approval request');
  messages.push(...first.response.messages);
  const answer = (approved: boolean) => {
    const response: ToolApprovalResponse = { type: 'tool-approval-response', approvalId: request.approvalId, approved };
    messages.push({ role: 'tool', content: [response] });
    return generateText({ ...settings, messages });
  };
  return { ...f, mock, answer };
}

describe('guardTools with a tool that needs approval', () => {
  it('should not begin a call that waits for approval, and gate it when it runs after approval', async () => {
    const a = await askForApproval();
    expect(a.runs).toEqual(['find_vm web-01']);
    expect(a.session.state).toBe('READING'); // waiting for a human is not a write in flight
    expect(a.recorder.entries.some((e) => e.call.type === 'beginToolCall' && e.call.id === 'w1')).toBe(false);

    const second = await a.answer(true);
    expect(a.runs).toEqual(['find_vm web-01', 'restart_vm web-01', 'get_vm_status web-01']);
    expect(second.text).toBe('web-01 was restarted and is running.');
    expect(a.session.state).toBe('READING');
    expect(a.recorder.entries.filter((e) => e.call.type === 'beginToolCall').map((e) => e.decision)).toEqual([
      'allowed',
      'allowed',
      'allowed',
    ]);
    expect(replayRecording(a.recorder.entries).divergences).toEqual([]);
  });

  it('should never begin a call the human denied', async () => {
    const a = await askForApproval();
    await a.answer(false); // the model then reads, as scripted
    expect(a.runs).not.toContain('restart_vm web-01');
    expect(a.recorder.entries.some((e) => e.call.type === 'beginToolCall' && e.call.id === 'w1')).toBe(false);
    expect(a.session.wroteThisEpisode).toBe(false);
  });

  it('should still refuse an approved write before discovery: approval is not a validated target', async () => {
    const a = await askForApproval([{ calls: [restart('w1')] }, { text: 'I could not restart web-01.' }]);
    await a.answer(true);
    const sent = a.mock.doGenerateCalls.at(-1)!.prompt.filter((m) => m.role === 'tool');
    expect(JSON.stringify(sent)).toContain('NO_VALIDATED_TARGET'); // the model is shown the envelope
    expect(a.recorder.entries.map((e) => e.reasonCode).filter(Boolean)).toEqual(['NO_VALIDATED_TARGET']);
    expect(a.runs).toEqual([]);
  });
});
