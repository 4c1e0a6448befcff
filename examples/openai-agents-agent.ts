/*
 * An OpenAI Agents SDK agent with the gate: three guardedTool tools,
 * guardModel and finalAnswerGuardrail.
 *
 *   npx tsx examples/openai-agents-agent.ts [--out FILE] [--stream]
 *
 * Runs offline: the model is a scripted fake `Model` (the SDK's own
 * interface; no network, tracing off), making the moves a careless model
 * makes (a write before discovery, a final answer before verification). With
 * a real model, replace `new ScriptedModel()` by e.g.
 * `new OpenAIResponsesModel(new OpenAI(), 'gpt-5')`; nothing else changes.
 * Writes the session's recording (default recordings/openai-agents-agent.jsonl).
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  Agent,
  OutputGuardrailTripwireTriggered,
  Runner,
  Usage,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents';
import { z } from 'zod';
import { createClassifier, createSafetySession } from 'assistant-safety';
import { createFileRecorder } from 'assistant-safety/node';
import { finalAnswerGuardrail, guardedTool, guardModel } from 'assistant-safety/openai-agents';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'recordings/openai-agents-agent.jsonl' },
    stream: { type: 'boolean', default: false },
  },
});

// ---- the infrastructure the tools act on (in memory) ----
const vms = new Map([['web-01', { id: 'vm-101', power: 'running', restarts: 0 }]]);

// ---- the model: scripted, offline ----
/**
 * A fake `Model`, scripted. Each call returns the next move; the moves it
 * makes are the ones the gate exists for.
 */
class ScriptedModel implements Model {
  private i = 0;
  private readonly moves: ({ call: string; tool: string } | { text: string })[] = [
    { call: 'call_1', tool: 'restart_vm' }, // a write before discovery: refused, NO_VALIDATED_TARGET
    { call: 'call_2', tool: 'find_vm' }, // discovery
    { call: 'call_3', tool: 'restart_vm' }, // the write
    { text: 'web-01 has been restarted.' }, // claimed before verification: re-prompted, FINAL_ANSWER_UNVERIFIED
    { call: 'call_4', tool: 'get_vm_status' }, // the read after the write verifies it
    { text: 'web-01 was restarted and is running again.' }, // the verified answer stands
  ];

  private next(request: ModelRequest): ModelResponse['output'] {
    const last = Array.isArray(request.input) ? request.input.at(-1) : undefined;
    if (
      last &&
      'role' in last &&
      last.role === 'user' &&
      JSON.stringify(last.content).includes('FINAL_ANSWER_UNVERIFIED')
    ) {
      console.log('  (answer held back; the model is shown FINAL_ANSWER_UNVERIFIED)');
    }
    const move = this.moves[this.i++];
    if (!move) throw new Error('the script is over');
    if ('text' in move) {
      return [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: move.text }],
        },
      ];
    }
    return [
      {
        type: 'function_call',
        callId: move.call,
        name: move.tool,
        arguments: JSON.stringify({ name: 'web-01' }),
        status: 'completed',
      },
    ];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    return { usage: new Usage(), output: this.next(request) };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const output = this.next(request);
    yield { type: 'response_started' };
    for (const item of output) {
      if (item.type === 'message' && item.role === 'assistant') {
        for (const part of item.content)
          if (part.type === 'output_text') yield { type: 'output_text_delta', delta: part.text };
      }
    }
    yield {
      type: 'response_done',
      response: {
        id: `resp_${this.i}`,
        usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        output: output as never,
      },
    };
  }
}

// ---- the gate: one session per conversation and a classifier ----
rmSync(values.out, { force: true });
const recorder = createFileRecorder(values.out);
let clock = Date.UTC(2026, 0, 12, 9, 30); // a fixed clock keeps the recording the same from run to run
const session = createSafetySession({ id: 'openai-agents-agent', recorder, now: () => (clock += 250) });
const guard = {
  session,
  classify: createClassifier({ tools: { find_vm: 'resolve', get_vm_status: 'read', restart_vm: 'write' } }),
};

// ---- three tools: `guardedTool(options, guard)` where you would write `tool(options)` ----
const Vm = z.object({ name: z.string().describe('The VM name, e.g. web-01') });
const findVm = guardedTool(
  {
    name: 'find_vm',
    description: 'Finds a VM by name.',
    parameters: Vm,
    execute: async ({ name }) => {
      const vm = vms.get(name);
      if (!vm) throw new Error(`no VM named ${name}`);
      return { name, id: vm.id };
    },
  },
  guard,
);
const restartVm = guardedTool(
  {
    name: 'restart_vm',
    description: 'Restarts a VM.',
    parameters: Vm,
    execute: async ({ name }) => {
      const vm = vms.get(name);
      if (!vm) throw new Error(`no VM named ${name}`);
      vm.restarts += 1;
      return { name, accepted: true };
    },
  },
  guard,
);
const getVmStatus = guardedTool(
  {
    name: 'get_vm_status',
    description: "A VM's power state.",
    parameters: Vm,
    execute: async ({ name }) => ({ name, power: vms.get(name)?.power ?? 'unknown' }),
  },
  guard,
);

const agent = new Agent({
  name: 'vm-operator',
  instructions: 'You operate virtual machines. Use the tools.',
  model: guardModel(new ScriptedModel(), { session, maxRePrompts: 2 }),
  tools: [findVm, restartVm, getVmStatus],
  outputGuardrails: [finalAnswerGuardrail({ session })],
});

const prompt = 'Restart web-01, please.';
console.log(`${values.stream ? 'run (streamed)' : 'run'}: "${prompt}"`);
const runner = new Runner({ tracingDisabled: true }); // no trace export: the example makes no network call
runner.on('agent_tool_end', (_context, _agent, tool, output) => {
  console.log(`  ${tool.name} -> ${output}`);
  console.log(`  [session ${session.state}]`);
});
try {
  let finalOutput: unknown;
  if (values.stream) {
    const result = await runner.run(agent, prompt, { stream: true });
    for await (const event of result) void event;
    await result.completed;
    if (result.error) throw result.error;
    finalOutput = result.finalOutput;
  } else {
    finalOutput = (await runner.run(agent, prompt)).finalOutput;
  }
  console.log(`\nfinal answer: ${String(finalOutput)}`);
} catch (error) {
  if (!(error instanceof OutputGuardrailTripwireTriggered)) throw error;
  console.log(`\nanswer stopped: ${JSON.stringify(error.result.output.outputInfo)}`);
} finally {
  recorder.close();
}
console.log(`recording: ${values.out} (${session.state})`);
