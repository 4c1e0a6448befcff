import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier, createSafetySession } from 'assistant-safety';
import { guardModel, guardTools } from 'assistant-safety/ai-sdk';
import { scriptedModel } from './script.js';

const classify = createClassifier({
  tools: {
    get_vm: { kind: 'read', targets: ['id'], prefix: 'vm:' },
    restart_vm: { kind: 'write', targets: ['id'], prefix: 'vm:' },
  },
});
const Vm = z.object({ id: z.number() });
const call = (id: string, name: string, vm: number) => ({ id, name, input: { id: vm } });

describe.each(['generateText', 'streamText'] as const)('guardTools with target binding (%s)', (mode) => {
  it('should block a write to a target no read validated, run one to a read target, and verify it by reading it', async () => {
    const session = createSafetySession({ targets: 'bind' });
    const runs: string[] = [];
    const tools = guardTools(
      {
        get_vm: tool({ inputSchema: Vm, execute: async ({ id }) => (runs.push(`get_vm ${id}`), { id, power: 'on' }) }),
        restart_vm: tool({ inputSchema: Vm, execute: async ({ id }) => (runs.push(`restart_vm ${id}`), { id }) }),
      },
      { session, classify },
    );
    const args = {
      model: guardModel(
        scriptedModel([
          { calls: [call('r1', 'get_vm', 1)] },
          { calls: [call('w2', 'restart_vm', 2)] },
          { calls: [call('w1', 'restart_vm', 1)] },
          { calls: [call('r2', 'get_vm', 1)] },
          { text: 'vm 1 was restarted and is on.' },
        ]),
        { session },
      ),
      tools,
      stopWhen: stepCountIs(10),
      prompt: 'Restart vm 1.',
    };
    const result = mode === 'generateText' ? await generateText(args) : streamText(args);
    const steps = await result.steps;
    const blocked = steps.flatMap((s) => s.content).find((p) => p.type === 'tool-result' && p.toolCallId === 'w2') as
      { output?: unknown } | undefined;
    expect(blocked?.output).toMatchObject({
      error: 'FSM_BLOCKED',
      details: { reasonCode: 'TARGET_NOT_VALIDATED', targets: ['vm:2'] },
    });
    expect(runs).toEqual(['get_vm 1', 'restart_vm 1', 'get_vm 1']);
    expect(await result.text).toBe('vm 1 was restarted and is on.');
    expect(session.state).toBe('READING');
    expect(session.validatedTargets).toEqual(['vm:1']);
  });
});
