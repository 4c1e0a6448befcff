import { Agent, RunContext, Runner } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { replayRecording } from 'assistant-safety';
import { guardedTool } from 'assistant-safety/openai-agents';
import { find, fixture, restart, ScriptedModel, status } from './script.js';

describe('guardedTool call lifecycle', () => {
  it('should not begin a call waiting for approval, and gate it once approved', async () => {
    const f = fixture();
    const restartVm = guardedTool(
      {
        name: 'restart_vm',
        description: 'Restarts a VM.',
        parameters: z.object({ name: z.string() }),
        needsApproval: true,
        execute: async ({ name }) => {
          f.runs.push(`restart_vm ${name}`);
          return { restarted: name };
        },
      },
      { session: f.session, classify: f.classify },
    );
    const agent = new Agent({
      name: 'ops',
      model: new ScriptedModel([
        { calls: [find('c1')] },
        { calls: [restart('w1')] },
        { calls: [status('r1')] },
        { text: 'web-01 was restarted and is running.' },
      ]),
      tools: [f.tools.find_vm, restartVm, f.tools.get_vm_status],
    });
    const runner = new Runner({ tracingDisabled: true });
    const first = await runner.run(agent, 'Restart web-01.');
    expect(first.interruptions).toHaveLength(1);
    expect(f.runs).toEqual(['find_vm web-01']);
    expect(f.session.state).toBe('READING'); // waiting for a human is not a write in flight
    expect(f.recorder.entries.some((e) => e.call.type === 'beginToolCall' && e.call.id === 'w1')).toBe(false);

    first.state.approve(first.interruptions[0]!);
    const second = await runner.run(agent, first.state);
    expect(f.runs).toEqual(['find_vm web-01', 'restart_vm web-01', 'get_vm_status web-01']);
    expect(second.finalOutput).toBe('web-01 was restarted and is running.');
    expect(f.session.state).toBe('READING');
    expect(replayRecording(f.recorder.entries).divergences).toEqual([]);
  });

  it('should treat an aborted write as possibly landed: it must be verified', async () => {
    const f = fixture();
    f.session.targetEstablished();
    const restartVm = guardedTool(
      {
        name: 'restart_vm',
        description: 'Restarts a VM.',
        parameters: z.object({ name: z.string() }),
        execute: (_input, _context, details) =>
          new Promise((_, reject) => details!.signal!.addEventListener('abort', () => reject(details!.signal!.reason))),
      },
      { session: f.session, classify: f.classify },
    );
    const controller = new AbortController();
    const toolCall = {
      type: 'function_call' as const,
      callId: 'w1',
      name: 'restart_vm',
      arguments: '{"name":"web-01"}',
    };
    const pending = restartVm.invoke(new RunContext(), toolCall.arguments, { toolCall, signal: controller.signal });
    await new Promise((r) => setTimeout(r, 0));
    expect(f.session.state).toBe('WRITING');
    controller.abort(new DOMException('stopped', 'AbortError'));
    await expect(pending).rejects.toThrow('stopped');
    expect(f.session.state).toBe('VERIFYING');
    expect(f.session.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    expect(replayRecording(f.recorder.entries).divergences).toEqual([]);
  });
});
