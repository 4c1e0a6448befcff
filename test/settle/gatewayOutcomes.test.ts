import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createSafetySession } from 'assistant-safety';
import { createMcpGateway, type McpGatewayOptions } from 'assistant-safety/mcp';
import { createRedisGatewaySession, type RedisGatewaySession } from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from '../redis/redisServer.js';
import { OUTCOME_CASES } from './outcomeTable.js';

/*
 * The MCP gateway between the SDK's own client and server. A thrown value reaches the gateway
 * where it meets the server: its transport's `send` of the write throws the case's value (a cut
 * pipe, a timeout, an unreadable value). What a server's tool throws reaches it as an `isError`
 * result instead: a failure the tool reported.
 */

let redis: TestRedis;
const shared: RedisGatewaySession[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
});

afterAll(async () => {
  await Promise.all(shared.map((s) => s.close()));
  await redis.stop();
});

/** A gateway in front of a real MCP server with `find` (read-only) and `restart` (a write). */
async function setUp(
  sessionOf: () => Pick<McpGatewayOptions, 'session' | 'sharedSession'>,
  sendThrows?: () => unknown,
) {
  const server = new McpServer({ name: 'outcomes', version: '1.0.0' });
  server.registerTool('find', { inputSchema: { n: z.number() }, annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: 'text', text: 'found' }],
  }));
  server.registerTool(
    'restart',
    { inputSchema: { n: z.number() }, annotations: { readOnlyHint: false } },
    async ({ n }) => {
      if (n < 0) throw new Error('disk full');
      return { content: [{ type: 'text', text: 'done' }] };
    },
  );
  const [serverSide, downstream] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  // The first write's request cannot be sent: the link to the server throws the case's value.
  const send = downstream.send.bind(downstream);
  let thrown = false;
  downstream.send = async (message: JSONRPCMessage, options) => {
    const params = 'method' in message && message.method === 'tools/call' ? (message.params as { name?: string }) : {};
    if (sendThrows && !thrown && params.name === 'restart') {
      thrown = true;
      throw sendThrows();
    }
    return send(message, options);
  };
  const [upstream, clientSide] = InMemoryTransport.createLinkedPair();
  const gateway = createMcpGateway({ upstream, downstream, ...sessionOf() });
  await gateway.start();
  const client = new Client({ name: 'outcomes', version: '1.0.0' });
  await client.connect(clientSide);
  const call = (name: string, n: number) =>
    client.callTool({ name, arguments: { n } }).then(
      (r) => r as { isError?: boolean; content: Array<{ text?: string }> },
      (e: Error) => ({ isError: true, thrown: e.message, content: [] }),
    );
  const reasonOf = (r: { isError?: boolean; content: Array<{ text?: string }> }) =>
    r.isError && r.content[0]?.text
      ? (JSON.parse(r.content[0].text) as { details?: { reasonCode?: string } }).details?.reasonCode
      : null;
  return { gateway, call, reasonOf, close: () => client.close() };
}

const sessions: Array<[string, () => Pick<McpGatewayOptions, 'session' | 'sharedSession'>]> = [
  ['a local session', () => ({ session: createSafetySession() })],
  [
    'a Redis session',
    () => {
      const s = createRedisGatewaySession({
        redis: { url: redis.url, timeoutMs: 20_000 },
        sessionId: `outcomes-${shared.length}`,
      });
      shared.push(s);
      return { sharedSession: s };
    },
  ],
];

describe.each(sessions)('the MCP gateway on %s ends a write by the shared outcome table', (_, sessionOf) => {
  for (const c of OUTCOME_CASES) {
    it(`should leave ${c.state} when ${c.name}`, async () => {
      const { gateway, call, reasonOf, close } = await setUp(sessionOf, c.thrown);
      expect((await call('find', 0)).isError).toBeFalsy();
      const first = await call('restart', 1);
      expect(first.isError === true).toBe(c.thrown !== undefined);
      expect(gateway.session.state).toBe(c.state);
      expect(gateway.session.inFlightWrite).toBeUndefined();
      expect(reasonOf(await call('restart', 2)) ?? null).toBe(c.next);
      await close();
      await gateway.closed;
    });
  }

  it("should leave READING when the server's tool throws (an isError result: a failure the tool reported)", async () => {
    const { gateway, call, reasonOf, close } = await setUp(sessionOf);
    await call('find', 0);
    expect((await call('restart', -1)).isError).toBe(true);
    expect(gateway.session.state).toBe('READING');
    expect(reasonOf(await call('restart', 2)) ?? null).toBeNull();
    await close();
    await gateway.closed;
  });
});
