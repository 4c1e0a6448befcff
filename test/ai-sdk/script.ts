import { tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { createClassifier, createMemoryRecorder, createSafetySession } from 'assistant-safety';

/** One model turn of a script: tool calls, or a text answer. */
export type Turn = { calls: { id: string; name: string; input: Record<string, unknown> }[] } | { text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function generateResult(turn: Turn) {
  if ('text' in turn) {
    return {
      content: [{ type: 'text' as const, text: turn.text }],
      finishReason: { unified: 'stop' as const, raw: 'stop' },
      usage,
      warnings: [],
    };
  }
  return {
    content: turn.calls.map((c) => ({
      type: 'tool-call' as const,
      toolCallId: c.id,
      toolName: c.name,
      input: JSON.stringify(c.input),
    })),
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

function streamResult(turn: Turn) {
  const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
  if ('text' in turn) {
    parts.push(
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: turn.text },
      { type: 'text-end', id: 't' },
    );
  } else {
    for (const c of turn.calls) {
      parts.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.input) });
    }
  }
  parts.push({
    type: 'finish',
    finishReason: 'text' in turn ? { unified: 'stop', raw: 'stop' } : { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
  });
  return { stream: convertArrayToReadableStream(parts as never[]) };
}

/** The SDK's own mock model, answering each call with the next turn of the script. */
export function scriptedModel(turns: Turn[]) {
  let i = 0;
  const next = () => {
    const turn = turns[i++];
    if (!turn) throw new Error(`the script has ${turns.length} turns; the model was called again`);
    return turn;
  };
  return new MockLanguageModelV3({
    doGenerate: async () => generateResult(next()),
    doStream: async () => streamResult(next()) as never,
  });
}

/** A session with an in-memory recorder and a fixed clock, and three tools whose runs are counted. */
export function fixture() {
  const recorder = createMemoryRecorder();
  let t = 1_768_210_200_000;
  const session = createSafetySession({ recorder, id: 'ai-sdk-test', now: () => (t += 100) });
  const runs: string[] = [];
  const classify = createClassifier({
    tools: { find_vm: 'resolve', get_vm_status: 'read', restart_vm: 'write', stop_vm: 'write' },
  });
  const Vm = z.object({ name: z.string() });
  const tools = {
    find_vm: tool({
      description: 'Finds a VM by name.',
      inputSchema: Vm,
      execute: async ({ name }) => {
        runs.push(`find_vm ${name}`);
        return { id: 'vm-101', name };
      },
    }),
    get_vm_status: tool({
      description: "A VM's power state.",
      inputSchema: Vm,
      execute: async ({ name }) => {
        runs.push(`get_vm_status ${name}`);
        return { name, power: 'running' };
      },
    }),
    restart_vm: tool({
      description: 'Restarts a VM.',
      inputSchema: Vm,
      execute: async ({ name }) => {
        runs.push(`restart_vm ${name}`);
        await new Promise((r) => setTimeout(r, 5)); // still in flight while the step's other calls begin
        return { restarted: name };
      },
    }),
    stop_vm: tool({
      description: 'Stops a VM.',
      inputSchema: Vm,
      execute: async ({ name }) => {
        runs.push(`stop_vm ${name}`);
        return { stopped: name };
      },
    }),
  };
  return { recorder, session, runs, classify, tools };
}

export const find = (id: string) => ({ id, name: 'find_vm', input: { name: 'web-01' } });
export const status = (id: string) => ({ id, name: 'get_vm_status', input: { name: 'web-01' } });
export const restart = (id: string) => ({ id, name: 'restart_vm', input: { name: 'web-01' } });
export const stop = (id: string) => ({ id, name: 'stop_vm', input: { name: 'web-01' } });
