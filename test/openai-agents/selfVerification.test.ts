import { Agent, Runner } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier, createSafetySession } from 'assistant-safety';
import { guardedTool } from 'assistant-safety/openai-agents';
import { ScriptedModel } from './script.js';

const Plain = z.object({ name: z.string() });
const WithVerification = z.object({ name: z.string(), verification: z.object({ ok: z.boolean() }) });

async function run(
  rules: Parameters<typeof createClassifier>[0],
  input: Record<string, unknown>,
  result: (args: unknown) => unknown,
) {
  const session = createSafetySession();
  const guard = { session, classify: createClassifier(rules) };
  const find = guardedTool(
    { name: 'find_vm', description: 'Finds a VM.', parameters: Plain, execute: async ({ name }) => ({ id: name }) },
    guard,
  );
  const apply = guardedTool(
    {
      name: 'apply_config',
      description: 'Applies.',
      parameters: 'verification' in input ? WithVerification : Plain,
      execute: async (args: unknown) => result(args),
    },
    guard,
  );
  const agent = new Agent({
    name: 'ops',
    model: new ScriptedModel([
      { calls: [{ id: 'c1', name: 'find_vm', input: { name: 'web-01' } }] },
      { calls: [{ id: 'w1', name: 'apply_config', input }] },
      { text: 'Applied.' },
    ]),
    tools: [find, apply],
  });
  await new Runner({ tracingDisabled: true }).run(agent, 'Apply the config.');
  return session;
}

const echo = (args: unknown) => ({ applied: true, ...(args as object) });
const declared = { tools: { find_vm: 'resolve', apply_config: { kind: 'write', selfVerifying: true } } } as const;

describe('guardedTool and self-verification', () => {
  it('should not let a verification the model put in the arguments verify the write', async () => {
    const session = await run(declared, { name: 'web-01', verification: { ok: true } }, echo);
    expect(session.state).toBe('VERIFYING');
    expect(session.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
  });

  it('should not let the result of a tool not declared self-verifying verify its write', async () => {
    const rules = { tools: { find_vm: 'resolve', apply_config: 'write' } } as const;
    const session = await run(rules, { name: 'web-01' }, () => ({ verification: { ok: true } }));
    expect(session.state).toBe('VERIFYING');
  });

  it('should let a tool declared self-verifying verify its write with its own result', async () => {
    const session = await run(declared, { name: 'web-01' }, () => ({ verification: { ok: true } }));
    expect(session.state).toBe('READING');
    expect(session.canFinalAnswer()).toBeNull();
  });
});
