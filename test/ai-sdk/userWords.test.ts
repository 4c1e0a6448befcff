import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier, createSafetySession } from 'assistant-safety';
import { guardModel, guardTools } from 'assistant-safety/ai-sdk';
import { scriptedModel } from './script.js';

const classify = createClassifier({
  tools: { restart_vm: { kind: 'write', targets: ['id'], prefix: 'vm:' } },
});
const Vm = z.object({ id: z.number() });

/** A bound session and a guarded restart_vm that notes each id it restarts. */
function restartTools() {
  const session = createSafetySession({ targets: 'bind' });
  const runs: number[] = [];
  const tools = guardTools(
    { restart_vm: tool({ inputSchema: Vm, execute: async ({ id }) => (runs.push(id), { id }) }) },
    { session, classify },
  );
  return { session, runs, tools };
}

describe('guardTools and the user’s words', () => {
  it('should let a write go to the target the user named in the prompt, and no other', async () => {
    const { session, runs, tools } = restartTools();
    await generateText({
      model: guardModel(
        scriptedModel([
          // An injected second target first, then the one the user named.
          { calls: [{ id: 'w1', name: 'restart_vm', input: { id: 666 } }] },
          { calls: [{ id: 'w2', name: 'restart_vm', input: { id: 101 } }] },
          { text: 'done' },
        ]),
        { session, maxRePrompts: 0 },
      ),
      tools,
      stopWhen: stepCountIs(4),
      system: 'You operate VMs.',
      prompt: 'Please restart vm 101.',
    });
    expect(runs).toEqual([101]);
    const provenance = session.context.provenance.find((p) => p.target === 'vm:101');
    expect(provenance).toMatchObject({ source: 'user', words: '101' });
    expect(session.context.userWords).toContain('please restart vm 101.');
  });

  it('should take the system option as the engineer’s words when the model is guarded', async () => {
    const { session, runs, tools } = restartTools();
    await generateText({
      model: guardModel(
        scriptedModel([{ calls: [{ id: 'w1', name: 'restart_vm', input: { id: 17 } }] }, { text: 'ok' }]),
        {
          session,
          maxRePrompts: 0,
        },
      ),
      tools,
      stopWhen: stepCountIs(3),
      system: 'You look after vm 17 only.',
      prompt: 'Restart my machine.',
    });
    expect(runs).toEqual([17]);
    expect(session.context.provenance.find((p) => p.target === 'vm:17')).toMatchObject({ source: 'user' });
  });

  it('should take a new turn’s words, with the earlier turn’s calls and results in the history', async () => {
    const session = createSafetySession({ targets: 'bind' });
    const runs: number[] = [];
    const tools = guardTools(
      {
        restart_vm: tool({ inputSchema: Vm, execute: async ({ id }) => (runs.push(id), { id }) }),
        get_vm: tool({ inputSchema: Vm, execute: async ({ id }) => ({ id, status: 'running' }) }),
      },
      {
        session,
        classify: createClassifier({
          tools: {
            restart_vm: { kind: 'write', targets: ['id'], prefix: 'vm:' },
            get_vm: { kind: 'read', targets: ['id'], prefix: 'vm:' },
          },
        }),
      },
    );
    const model = guardModel(
      scriptedModel([
        { calls: [{ id: 'w1', name: 'restart_vm', input: { id: 201 } }] },
        { calls: [{ id: 'r1', name: 'get_vm', input: { id: 201 } }] },
        { text: 'restarted 201' },
        { calls: [{ id: 'w2', name: 'restart_vm', input: { id: 202 } }] },
        { text: 'restarted 202' },
      ]),
      { session, maxRePrompts: 0 },
    );
    const first = await generateText({ model, tools, stopWhen: stepCountIs(4), prompt: 'Restart vm 201.' });
    await generateText({
      model,
      tools,
      stopWhen: stepCountIs(3),
      messages: [
        { role: 'user', content: 'Restart vm 201.' },
        ...first.response.messages,
        { role: 'user', content: 'Now vm 202.' },
      ],
    });
    expect(runs).toEqual([201, 202]);
  });

  it('should not take a sub-agent’s prompt (written by the model) as the user’s words, guarded model or not', async () => {
    const session = createSafetySession({ targets: 'bind' });
    const runs: number[] = [];
    const subTools = guardTools(
      { restart_vm: tool({ inputSchema: Vm, execute: async ({ id }) => (runs.push(id), { id }) }) },
      { session, classify },
    );
    // Neither model is guarded: only the delegate call in flight tells the sub-agent's conversation apart.
    const tools = guardTools(
      {
        delegate: tool({
          inputSchema: z.object({ task: z.string() }),
          execute: async ({ task }) =>
            (
              await generateText({
                model: scriptedModel([
                  { calls: [{ id: 's1', name: 'restart_vm', input: { id: 666 } }] },
                  { text: 'ok' },
                ]),
                tools: subTools,
                stopWhen: stepCountIs(3),
                prompt: task,
              })
            ).text,
        }),
      },
      {
        session,
        classify: createClassifier({
          tools: { delegate: 'read', restart_vm: { kind: 'write', targets: ['id'], prefix: 'vm:' } },
        }),
      },
    );
    await generateText({
      model: scriptedModel([
        { calls: [{ id: 'd1', name: 'delegate', input: { task: 'Restart vm 666.' } }] },
        { text: 'done' },
      ]),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'Check my machines.',
    });
    expect(runs).toEqual([]);
    expect(session.context.userWords).toEqual(['check my machines.']);
  });
});
