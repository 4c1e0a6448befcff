import { Agent, Runner } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { replayRecording, type BlockReasonCode } from 'assistant-safety';
import { guardedTool, guardModel } from 'assistant-safety/openai-agents';
import { find, fixture, restart, ScriptedModel, status, stop } from './script.js';

/** Discovery, one write, then a second write before verifying: blocked `UNVERIFIED_WRITE`. */
async function start(escalate: BlockReasonCode[]) {
  const f = fixture();
  const guard = { session: f.session, classify: f.classify, escalate };
  // stop_vm is gated with escalation; the fixture's other tools without.
  const stopVm = guardedTool(
    {
      name: 'stop_vm',
      description: 'Stops a VM.',
      parameters: z.object({ name: z.string() }),
      execute: async ({ name }) => {
        f.runs.push(`stop_vm ${name}`);
        return { stopped: name };
      },
    },
    guard,
  );
  const model = new ScriptedModel([
    { calls: [find('c1')] },
    { calls: [restart('w1')] },
    { calls: [stop('w2')] },
    { calls: [status('r1')] },
    { text: 'web-01 was stopped and is checked.' },
  ]);
  const agent = new Agent({
    name: 'ops',
    model: guardModel(model, { session: f.session }),
    tools: [f.tools.find_vm, f.tools.restart_vm, f.tools.get_vm_status, stopVm],
  });
  const runner = new Runner({ tracingDisabled: true });
  const first = await runner.run(agent, 'Restart web-01, then stop it.');
  return { ...f, model, agent, runner, first };
}

describe('escalation through the Agents SDK', () => {
  it('should interrupt the run for an escalated block, and run the call once when approved', async () => {
    const s = await start(['UNVERIFIED_WRITE']);
    expect(s.first.interruptions).toHaveLength(1);
    expect(s.runs).toEqual(['find_vm web-01', 'restart_vm web-01']);
    expect(s.session.state).toBe('VERIFYING');
    expect(s.recorder.entries.filter((e) => e.decision === 'blocked')).toEqual([]); // asking is not a block

    s.first.state.approve(s.first.interruptions[0]!);
    const second = await s.runner.run(s.agent, s.first.state);
    expect(s.runs).toEqual(['find_vm web-01', 'restart_vm web-01', 'stop_vm web-01', 'get_vm_status web-01']);
    expect(s.recorder.entries.find((e) => e.call.type === 'attest')?.call).toMatchObject({
      reasonCode: 'UNVERIFIED_WRITE',
      by: 'openai-agents:approval',
    });
    expect(second.finalOutput).toBe('web-01 was stopped and is checked.');
    expect(s.session.state).toBe('READING');
    expect(replayRecording(s.recorder.entries).divergences).toEqual([]);
  });

  it('should show the model the block when the interruption is rejected, and never run the call', async () => {
    const s = await start(['UNVERIFIED_WRITE']);
    s.first.state.reject(s.first.interruptions[0]!);
    const second = await s.runner.run(s.agent, s.first.state);
    expect(s.runs).toEqual(['find_vm web-01', 'restart_vm web-01', 'get_vm_status web-01']);
    const input = JSON.stringify(s.model.requests[3]!.input);
    expect(input).toContain('Not approved by a person: Tool execution was not approved');
    expect(input).toContain('UNVERIFIED_WRITE');
    expect(second.finalOutput).toBe('web-01 was stopped and is checked.');
    expect(s.recorder.entries.some((e) => e.call.type === 'attest')).toBe(false);
  });

  it('should not ask about a block that is not escalated: the model reads the envelope', async () => {
    const s = await start(['TARGET_NOT_VALIDATED']);
    expect(s.first.interruptions).toHaveLength(0);
    expect(s.runs).toEqual(['find_vm web-01', 'restart_vm web-01', 'get_vm_status web-01']);
    expect(JSON.stringify(s.model.requests[3]!.input)).toContain('UNVERIFIED_WRITE');
    expect(s.first.finalOutput).toBe('web-01 was stopped and is checked.');
  });
});
