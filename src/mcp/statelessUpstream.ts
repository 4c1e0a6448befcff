import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** The client side of the gateway for HTTP requests that name no MCP session. See {@link createStatelessUpstream}. */
export interface StatelessUpstream extends Transport {
  /** Passes one POST's messages to the gateway; resolves with the answers to its requests, in order. */
  handle(messages: readonly JSONRPCMessage[], protocolVersion: string | undefined): Promise<JSONRPCMessage[]>;
}

const PREFIX = 'assistant-safety-stateless:';

/**
 * A `Transport` towards clients that send no `Mcp-Session-Id` (stateless
 * clients): each HTTP POST is handed to one shared gateway session. The
 * gateway initialises the server itself on the first request (with the
 * request's `MCP-Protocol-Version`, else the newest), gives every request an
 * id of its own (two clients may both send id 1) and answers with the
 * results. What the server sends that answers no request (notifications, its
 * own requests to the client) has no stream to go to and is dropped.
 *
 * @example
 * const upstream = createStatelessUpstream();
 * const gateway = createMcpGateway({ upstream, downstream: spawnMcpServer('my-server'), session });
 * await gateway.start();
 * const answers = await upstream.handle([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], undefined);
 */
export function createStatelessUpstream(): StatelessUpstream {
  let seq = 0;
  let initialized: Promise<void> | undefined;
  let closed = false;
  const waiting = new Map<string, (message: JSONRPCMessage) => void>();

  /** Sends one request into the gateway under an id of its own; resolves with the answer. */
  const ask = (message: Extract<JSONRPCMessage, { id: RequestId; method: string }>) =>
    new Promise<JSONRPCMessage>((resolve) => {
      const id = `${PREFIX}${seq++}`;
      waiting.set(id, (answer) => resolve({ ...answer, id: message.id } as JSONRPCMessage));
      upstream.onmessage?.({ ...message, id });
    });

  const initialize = (protocolVersion: string | undefined) =>
    (initialized ??= (async () => {
      const version =
        protocolVersion !== undefined && SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)
          ? protocolVersion
          : LATEST_PROTOCOL_VERSION;
      const answer = await ask({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: version,
          capabilities: {},
          clientInfo: { name: 'assistant-safety-gateway (stateless clients)', version: '1' },
        },
      });
      if (!('result' in answer)) {
        initialized = undefined;
        throw new Error(`the MCP server refused to initialise: ${JSON.stringify(answer)}`);
      }
      upstream.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
    })());

  const upstream: StatelessUpstream = {
    async start() {},
    async send(message: JSONRPCMessage) {
      if ('id' in message && !('method' in message) && typeof message.id === 'string') {
        const answer = waiting.get(message.id);
        waiting.delete(message.id);
        answer?.(message);
      }
      // Anything else has no stream to go to.
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const [id, answer] of waiting)
        answer({ jsonrpc: '2.0', id, error: { code: -32000, message: 'the gateway session closed' } });
      waiting.clear();
      upstream.onclose?.();
    },
    async handle(messages, protocolVersion) {
      if (closed) throw new Error('the gateway session closed');
      await initialize(protocolVersion);
      const answers: Array<Promise<JSONRPCMessage>> = [];
      for (const message of messages) {
        if ('method' in message && 'id' in message) answers.push(ask(message));
        // A cancellation names an id this client chose, which may be another client's too: not passed on.
        else if ('method' in message && message.method !== 'notifications/cancelled') upstream.onmessage?.(message);
      }
      return Promise.all(answers);
    },
  };
  return upstream;
}
