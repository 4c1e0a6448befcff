/*
 * An AI SDK agent with the gate: three tools, guardTools and guardModel.
 *
 *   npx tsx examples/ai-sdk-agent.ts [--out FILE] [--stream]
 *
 * Runs offline: the model is the AI SDK's own MockLanguageModelV3 (`ai/test`),
 * scripted to make the moves a careless model makes (a write before
 * discovery, a final answer before verification). With a real model, replace
 * `scriptedModel()` by e.g. `openai('gpt-5')` from `@ai-sdk/openai@3`; nothing
 * else changes. Writes the session's recording (default
 * recordings/ai-sdk-agent.jsonl): `npx assistant-safety replay FILE`, or open
 * it in the app.
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { createClassifier, createSafetySession } from 'assistant-safety';
import { guardModel, guardTools } from 'assistant-safety/ai-sdk';
import { createFileRecorder } from 'assistant-safety/node';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'recordings/ai-sdk-agent.jsonl' },
    stream: { type: 'boolean', default: false },
  },
});

// ---- the infrastructure the tools act on (in memory) ----
const vms = new Map([['web-01', { id: 'vm-101', power: 'running', restarts: 0 }]]);

// ---- three tools, written as for any AI SDK agent ----
const Vm = z.object({ name: z.string().describe('The VM name, e.g. web-01') });
const tools = {
  find_vm: tool({
    description: 'Finds a VM by name.',
    inputSchema: Vm,
    execute: async ({ name }) => {
      const vm = vms.get(name);
      if (!vm) throw new Error(`no VM named ${name}`);
      return { name, id: vm.id };
    },
  }),
  restart_vm: tool({
    description: 'Restarts a VM.',
    inputSchema: Vm,
    execute: async ({ name }) => {
      const vm = vms.get(name);
      if (!vm) throw new Error(`no VM named ${name}`);
      vm.restarts += 1;
      return { name, accepted: true };
    },
  }),
  get_vm_status: tool({
    description: "A VM's power state.",
    inputSchema: Vm,
    execute: async ({ name }) => ({ name, power: vms.get(name)?.power ?? 'unknown' }),
  }),
};

// ---- the gate: one session per conversation, a classifier, two wrappers ----
rmSync(values.out, { force: true });
const recorder = createFileRecorder(values.out);
let clock = Date.UTC(2026, 0, 12, 9, 30); // a fixed clock keeps the recording the same from run to run
const session = createSafetySession({ id: 'ai-sdk-agent', recorder, now: () => (clock += 250) });
const classify = createClassifier({ tools: { find_vm: 'resolve', get_vm_status: 'read', restart_vm: 'write' } });

const model = guardModel(scriptedModel(), { session, maxRePrompts: 2 });
const guarded = guardTools(tools, { session, classify });

const settings = {
  model,
  tools: guarded,
  stopWhen: stepCountIs(10),
  system: 'You operate virtual machines. Use the tools.',
  prompt: 'Restart web-01, please.',
  onStepFinish: (step: { toolResults: readonly { toolName: string; output: unknown }[]; text: string }) => {
    for (const r of step.toolResults) console.log(`  ${r.toolName} -> ${JSON.stringify(r.output)}`);
    if (step.text) console.log(`  answer: ${step.text}`);
    console.log(`  [session ${session.state}]`);
  },
};
console.log(`${values.stream ? 'streamText' : 'generateText'}: "${settings.prompt}"`);
const result = values.stream ? streamText(settings) : await generateText(settings);
const text = await result.text;
const flagged = (await result.providerMetadata)?.['assistant-safety'];
recorder.close();
console.log(`\nfinal answer: ${text}${flagged ? `\n(flagged: ${JSON.stringify(flagged)})` : ''}`);
console.log(`recording: ${values.out} (${session.state})`);

/**
 * The AI SDK's mock model, scripted. Each call returns the next move; the
 * moves it makes are the ones the gate exists for.
 */
function scriptedModel() {
  type Move = { call: string; tool: string } | { text: string };
  const moves: Move[] = [
    { call: 'call_1', tool: 'restart_vm' }, // a write before discovery: refused, NO_VALIDATED_TARGET
    { call: 'call_2', tool: 'find_vm' }, // discovery
    { call: 'call_3', tool: 'restart_vm' }, // the write
    { text: 'web-01 has been restarted.' }, // claimed before verification: re-prompted, FINAL_ANSWER_UNVERIFIED
    { call: 'call_4', tool: 'get_vm_status' }, // the read after the write verifies it
    { text: 'web-01 was restarted and is running again.' }, // the verified answer stands
  ];
  let i = 0;
  const usage = {
    inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 0, text: 0, reasoning: undefined },
  };
  const next = (prompt: readonly { role: string; content: unknown }[]) => {
    const last = prompt.at(-1);
    if (last?.role === 'user' && JSON.stringify(last.content).includes('FINAL_ANSWER_UNVERIFIED')) {
      console.log('  (answer held back; the model is shown FINAL_ANSWER_UNVERIFIED)');
    }
    const move = moves[i++];
    if (!move) throw new Error('the script is over');
    return move;
  };
  const input = JSON.stringify({ name: 'web-01' });
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const move = next(prompt);
      return 'text' in move
        ? {
            content: [{ type: 'text', text: move.text }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: 'tool-call', toolCallId: move.call, toolName: move.tool, input }],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          };
    },
    doStream: async ({ prompt }) => {
      const move = next(prompt);
      const parts =
        'text' in move
          ? [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: move.text },
              { type: 'text-end', id: 't' },
            ]
          : [{ type: 'tool-call', toolCallId: move.call, toolName: move.tool, input }];
      const finishReason =
        'text' in move ? { unified: 'stop', raw: 'stop' } : { unified: 'tool-calls', raw: 'tool_calls' };
      return {
        stream: convertArrayToReadableStream([
          { type: 'stream-start', warnings: [] },
          ...parts,
          { type: 'finish', finishReason, usage },
        ] as never[]),
      };
    },
  });
}
