/*
 * Stand-ins for the providers the docs pages use (`@ai-sdk/openai`, the Agents
 * SDK's OpenAIProvider), so docs.test.ts runs each page's agent as written,
 * offline: the same scripted moves as the examples.
 */
import { Usage, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import { scriptedModel, find, restart, status, type Turn } from './script.js';

const turns = (): Turn[] => [
  { calls: [restart('call_1')] },
  { calls: [find('call_2')] },
  { calls: [restart('call_3')] },
  { text: 'web-01 has been restarted.' },
  { calls: [status('call_4')] },
  { text: 'web-01 was restarted and is running again.' },
];

/** `openai(id)` from `@ai-sdk/openai`, scripted. */
export const openai = (_id: string) => scriptedModel(turns());

/** `new OpenAIProvider()` from `@openai/agents`, scripted. */
export class OpenAIProvider {
  async getModel(_name: string): Promise<Model> {
    const script = turns();
    let i = 0;
    const next = (): ModelResponse['output'] => {
      const turn = script[i++];
      if (!turn) throw new Error('the script is over');
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
    };
    return {
      getResponse: async (_r: ModelRequest) => ({ usage: new Usage(), output: next() }),
      getStreamedResponse: async function* (_r: ModelRequest): AsyncIterable<StreamEvent> {
        yield {
          type: 'response_done',
          response: {
            id: 'r',
            usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
            output: next() as never,
          },
        };
      },
    };
  }
}
