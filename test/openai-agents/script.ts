import {
  Usage,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents';
import { z } from 'zod';
import { createClassifier, createMemoryRecorder, createSafetySession } from 'assistant-safety';
import { guardedTool } from 'assistant-safety/openai-agents';

/** One model turn of a script: tool calls, or a text answer. */
export type Turn = { calls: { id: string; name: string; input: Record<string, unknown> }[] } | { text: string };

function outputOf(turn: Turn): ModelResponse['output'] {
  if ('text' in turn) {
    return [
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: turn.text }],
      },
    ];
  }
  return turn.calls.map((c) => ({
    type: 'function_call' as const,
    callId: c.id,
    name: c.name,
    arguments: JSON.stringify(c.input),
    status: 'completed' as const,
  }));
}

/** A fake `Model` (no network) answering each call with the next turn of the script; it keeps every request. */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  private i = 0;
  constructor(private readonly turns: Turn[]) {}

  private next(request: ModelRequest): Turn {
    this.requests.push(request);
    const turn = this.turns[this.i++];
    if (!turn) throw new Error(`the script has ${this.turns.length} turns; the model was called again`);
    return turn;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const turn = this.next(request);
    return {
      usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }),
      output: outputOf(turn),
    };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const turn = this.next(request);
    yield { type: 'response_started' };
    if ('text' in turn) yield { type: 'output_text_delta', delta: turn.text };
    yield {
      type: 'response_done',
      response: {
        id: `resp_${this.i}`,
        usage: { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 },
        output: outputOf(turn) as never, // the protocol's wire shape; the runner reads it as output items
      },
    };
  }
}

/** The text of the last user message of a request. */
export function lastUserText(request: ModelRequest): string {
  const input = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
  const last = (input as AgentInputItem[]).at(-1) as { role?: string; content?: unknown };
  expectUser(last);
  return typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
}
function expectUser(item: { role?: string }) {
  if (item.role !== 'user') throw new Error(`expected a user message last, got ${JSON.stringify(item)}`);
}

/** A session with an in-memory recorder and a fixed clock, and three gated tools whose runs are counted. */
export function fixture() {
  const recorder = createMemoryRecorder();
  let t = 1_768_210_200_000;
  const session = createSafetySession({ recorder, id: 'openai-agents-test', now: () => (t += 100) });
  const runs: string[] = [];
  const classify = createClassifier({
    tools: { find_vm: 'resolve', get_vm_status: 'read', restart_vm: 'write', stop_vm: 'write' },
  });
  const guard = { session, classify };
  const Vm = z.object({ name: z.string() });
  const tools = {
    find_vm: guardedTool(
      {
        name: 'find_vm',
        description: 'Finds a VM by name.',
        parameters: Vm,
        execute: async ({ name }) => {
          runs.push(`find_vm ${name}`);
          return { id: 'vm-101', name };
        },
      },
      guard,
    ),
    get_vm_status: guardedTool(
      {
        name: 'get_vm_status',
        description: "A VM's power state.",
        parameters: Vm,
        execute: async ({ name }) => {
          runs.push(`get_vm_status ${name}`);
          return { name, power: 'running' };
        },
      },
      guard,
    ),
    restart_vm: guardedTool(
      {
        name: 'restart_vm',
        description: 'Restarts a VM.',
        parameters: Vm,
        execute: async ({ name }) => {
          runs.push(`restart_vm ${name}`);
          await new Promise((r) => setTimeout(r, 5)); // still in flight while the step's other calls begin
          return { restarted: name };
        },
      },
      guard,
    ),
    stop_vm: guardedTool(
      {
        name: 'stop_vm',
        description: 'Stops a VM.',
        parameters: Vm,
        execute: async ({ name }) => {
          runs.push(`stop_vm ${name}`);
          return { stopped: name };
        },
      },
      guard,
    ),
  };
  return { recorder, session, runs, classify, tools };
}

export const find = (id: string) => ({ id, name: 'find_vm', input: { name: 'web-01' } });
export const status = (id: string) => ({ id, name: 'get_vm_status', input: { name: 'web-01' } });
export const restart = (id: string) => ({ id, name: 'restart_vm', input: { name: 'web-01' } });
export const stop = (id: string) => ({ id, name: 'stop_vm', input: { name: 'web-01' } });
