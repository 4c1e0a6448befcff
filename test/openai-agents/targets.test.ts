import { Agent, Runner } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier, createSafetySession } from 'assistant-safety';
import { guardedTool } from 'assistant-safety/openai-agents';
import { ScriptedModel } from './script.js';

const classify = createClassifier({
  tools: {
    get_vm: { kind: 'read', targets: ['id'], prefix: 'vm:' },
    restart_vm: { kind: 'write', targets: ['id'], prefix: 'vm:' },
  },
});
/** A plain function may return a CallDescriptor too. */
const describing = (name: string, input: unknown) => ({
  kind: name === 'get_vm' ? ('read' as const) : ('write' as const),
  targets: [`vm:${(input as { id: number }).id}`],
});
const Vm = z.object({ id: z.number() });
const call = (id: string, name: string, vm: number) => ({ id, name, input: { id: vm } });

describe.each([
  ['a rules classifier', classify],
  ['a function returning a CallDescriptor', describing],
] as const)('guardedTool with target binding and %s', (_, classify) => {
  it('should block a write to a target no read validated, run one to a read target, and verify it by reading it', async () => {
    const session = createSafetySession({ targets: 'bind' });
    const guard = { session, classify };
    const runs: string[] = [];
    const getVm = guardedTool(
      {
        name: 'get_vm',
        description: 'A VM.',
        parameters: Vm,
        execute: async ({ id }) => (runs.push(`get_vm ${id}`), { id, power: 'on' }),
      },
      guard,
    );
    const restartVm = guardedTool(
      {
        name: 'restart_vm',
        description: 'Restarts a VM.',
        parameters: Vm,
        execute: async ({ id }) => (runs.push(`restart_vm ${id}`), { id }),
      },
      guard,
    );
    const agent = new Agent({
      name: 'ops',
      model: new ScriptedModel([
        { calls: [call('r1', 'get_vm', 1)] },
        { calls: [call('w2', 'restart_vm', 2)] },
        { calls: [call('w1', 'restart_vm', 1)] },
        { calls: [call('r2', 'get_vm', 1)] },
        { text: 'vm 1 was restarted and is on.' },
      ]),
      tools: [getVm, restartVm],
    });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'Restart vm 1.');
    const blocked = result.newItems.find(
      (i) => i.type === 'tool_call_output_item' && (i.rawItem as { callId?: string }).callId === 'w2',
    ) as unknown as { output: unknown };
    expect(blocked.output).toMatchObject({
      error: 'FSM_BLOCKED',
      details: { reasonCode: 'TARGET_NOT_VALIDATED', targets: ['vm:2'] },
    });
    expect(runs).toEqual(['get_vm 1', 'restart_vm 1', 'get_vm 1']);
    expect(result.finalOutput).toBe('vm 1 was restarted and is on.');
    expect(session.state).toBe('READING');
    expect(session.validatedTargets).toEqual(['vm:1']);
  });
});
