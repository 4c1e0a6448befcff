import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier, createSafetySession } from 'assistant-safety';
import { guardModel, guardTools } from 'assistant-safety/ai-sdk';
import { scriptedModel } from './script.js';

const Input = z.object({ name: z.string(), verification: z.object({ ok: z.boolean() }).optional() });

/** A write tool that echoes its arguments, as many do. */
async function run(rules: Parameters<typeof createClassifier>[0], input: Record<string, unknown>) {
  const session = createSafetySession();
  const tools = guardTools(
    {
      find_vm: tool({ inputSchema: Input, execute: async ({ name }) => ({ id: name }) }),
      apply_config: tool({ inputSchema: Input, execute: async (args) => ({ applied: true, ...args }) }),
    },
    { session, classify: createClassifier(rules) },
  );
  await generateText({
    model: guardModel(
      scriptedModel([
        { calls: [{ id: 'c1', name: 'find_vm', input: { name: 'web-01' } }] },
        { calls: [{ id: 'w1', name: 'apply_config', input }] },
        { text: 'Applied.' },
        { text: 'Applied.' },
        { text: 'Applied.' },
      ]),
      { session },
    ),
    tools,
    stopWhen: stepCountIs(5),
    prompt: 'Apply the config.',
  });
  return session;
}

describe('guardTools and self-verification', () => {
  it('should not let a verification the model put in the arguments verify the write', async () => {
    const session = await run(
      { tools: { find_vm: 'resolve', apply_config: { kind: 'write', selfVerifying: true } } },
      { name: 'web-01', verification: { ok: true } },
    );
    expect(session.state).toBe('VERIFYING');
    expect(session.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
  });

  it('should not let the result of a tool not declared self-verifying verify its write', async () => {
    const session = await run(
      { tools: { find_vm: 'resolve', apply_config: 'write' } },
      {
        name: 'web-01',
        verification: { ok: true },
      },
    );
    expect(session.state).toBe('VERIFYING');
  });

  it('should let a tool declared self-verifying verify its write with its own result', async () => {
    const rules = { tools: { find_vm: 'resolve', apply_config: { kind: 'write', selfVerifying: true } } } as const;
    const session = createSafetySession();
    const tools = guardTools(
      {
        find_vm: tool({ inputSchema: Input, execute: async ({ name }) => ({ id: name }) }),
        apply_config: tool({
          inputSchema: Input,
          execute: async () => ({ applied: true, verification: { ok: true } }),
        }),
      },
      { session, classify: createClassifier(rules) },
    );
    const result = await generateText({
      model: guardModel(
        scriptedModel([
          { calls: [{ id: 'c1', name: 'find_vm', input: { name: 'web-01' } }] },
          { calls: [{ id: 'w1', name: 'apply_config', input: { name: 'web-01' } }] },
          { text: 'Applied and verified.' },
        ]),
        { session },
      ),
      tools,
      stopWhen: stepCountIs(5),
      prompt: 'Apply the config.',
    });
    expect(result.text).toBe('Applied and verified.');
    expect(session.state).toBe('READING');
    expect(session.canFinalAnswer()).toBeNull();
  });
});
