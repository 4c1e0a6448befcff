import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpGateway } from 'assistant-safety/mcp';
import { createRedisGatewaySession } from 'assistant-safety/redis';
import { END_NOT_RECORDED, GATE_META } from '../../src/mcp/createMcpGateway.js';
import { startTestRedis, type TestRedis } from '../redis/redisServer.js';

/*
 * A write that ran on a gateway whose Redis went away before the write's end was saved: the
 * client gets the tool's real result, plus a warning item and `_meta` saying the gate could
 * not record the end (never a plain `ok`, never an error that invites a retry).
 */

let redis: TestRedis;

beforeAll(async () => {
  redis = await startTestRedis();
});

afterAll(async () => {
  await redis.stop();
});

describe('a gateway whose Redis is gone when a write ends', () => {
  it("should answer the tool's real result with a warning that the gate could not record it", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    const server = new McpServer({ name: 'slow', version: '1.0.0' });
    server.registerTool('get_status', { annotations: { readOnlyHint: true } }, async () => ({
      content: [{ type: 'text', text: 'running' }],
    }));
    server.registerTool('restart', { annotations: { readOnlyHint: false } }, async () => {
      running();
      await released;
      return { content: [{ type: 'text', text: 'restarted web' }] };
    });
    const [serverSide, downstream] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const [upstream, clientSide] = InMemoryTransport.createLinkedPair();
    const sharedSession = createRedisGatewaySession({
      redis: { url: redis.url, timeoutMs: 500 },
      sessionId: `gone-${Date.now()}`,
    });
    const lines: string[] = [];
    const gateway = createMcpGateway({ upstream, downstream, sharedSession, log: (l) => lines.push(l) });
    await gateway.start();
    const client = new Client({ name: 'end-not-saved', version: '1.0.0' });
    await client.connect(clientSide);

    const ok = (await client.callTool({ name: 'get_status', arguments: {} })) as Record<string, unknown>;
    // While Redis is up, an answer is passed on as the server sent it.
    expect(ok._meta).toBeUndefined();
    expect(ok.content).toEqual([{ type: 'text', text: 'running' }]);

    const answer = client.callTool({ name: 'restart', arguments: {} }) as Promise<Record<string, unknown>>;
    await started;
    await redis.kill();
    release();
    const result = await answer;
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([
      { type: 'text', text: 'restarted web' },
      { type: 'text', text: END_NOT_RECORDED },
    ]);
    expect((result._meta as Record<string, unknown>)[GATE_META]).toEqual({
      recorded: false,
      warning: END_NOT_RECORDED,
    });
    expect(lines.join('\n')).toMatch(/could not end restart on the session/);

    await client.close();
    await gateway.closed;
    await sharedSession.close();
    await redis.restart();
  }, 60_000);
});
