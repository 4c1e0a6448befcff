import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSafetySession } from 'assistant-safety';
import { listenHttp, spawnMcpServer, type HttpGatewayOptions } from 'assistant-safety/mcp';
import { fixtureCommand, tempDir, until } from './helpers.js';

/*
 * Over Streamable HTTP each MCP session has a server process: at most maxSessions are open, a
 * session idle for idleTimeoutMs ends with its server, and clients that send no session header
 * (stateless clients) share one gateway session.
 */

const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

async function listen(options: Partial<HttpGatewayOptions> = {}) {
  const dirs: string[] = [];
  const http = await listenHttp({
    connectServer: () => {
      const dir = tempDir();
      dirs.push(dir);
      const [command, ...args] = fixtureCommand(dir);
      return spawnMcpServer(command!, args);
    },
    createSession: (id) => createSafetySession({ id }),
    ...options,
  });
  const connect = async () => {
    const transport = new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { Authorization: `Bearer ${http.token}` } },
    });
    const client = new Client({ name: 'http-limits', version: '1.0.0' });
    await client.connect(transport);
    return { client, transport };
  };
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(http.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${http.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: response.status === 202 ? undefined : ((await response.json()) as unknown),
    };
  };
  const pidOf = (i: number) => Number(readFileSync(join(dirs[i]!, 'server.pid'), 'utf8'));
  return { http, connect, post, dirs, pidOf };
}

describe('listenHttp: sessions are bounded', () => {
  it('should refuse an initialize past maxSessions with 503, and take one again once a session ends', async () => {
    const { http, connect } = await listen({ maxSessions: 2 });
    try {
      const a = await connect();
      await connect();
      await expect(connect()).rejects.toThrow(/503|too many MCP sessions open \(2\)/);
      expect(http.gateways.size).toBe(2);
      await a.transport.terminateSession();
      await until(() => http.gateways.size === 1);
      await connect();
      expect(http.gateways.size).toBe(2);
    } finally {
      await http.close();
    }
  }, 60_000);

  it('should end a session idle for idleTimeoutMs, and its server process', async () => {
    const { http, connect, dirs, pidOf } = await listen({ idleTimeoutMs: 500 });
    try {
      const { client } = await connect();
      await client.listTools();
      await until(() => dirs.length === 1 && readFileSync(join(dirs[0]!, 'server.pid'), 'utf8').length > 0);
      const pid = pidOf(0);
      expect(alive(pid)).toBe(true);
      await until(() => http.gateways.size === 0, 20_000);
      await until(() => !alive(pid));
    } finally {
      await http.close();
    }
  }, 60_000);
});

describe('listenHttp: clients that send no session header', () => {
  it('should answer their requests from one shared gateway session, gated as one session', async () => {
    const { http, post } = await listen();
    const call = (id: number, name: string) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: { name: 'web' } },
    });
    try {
      const blocked = await post(call(1, 'restart_service'));
      expect(blocked.status).toBe(200);
      expect(blocked.body).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { isError: true, structuredContent: { details: { reasonCode: 'NO_VALIDATED_TARGET' } } },
      });
      // Another client, the same id 1: its read counts for the shared session.
      expect((await post(call(1, 'get_status'), { 'mcp-protocol-version': '2025-06-18' })).body).toMatchObject({
        id: 1,
        result: { content: [{ text: '{"service":"web","status":"running"}' }] },
      });
      const batch = await post([call(7, 'restart_service'), { jsonrpc: '2.0', method: 'notifications/whatever' }]);
      expect(batch.body).toMatchObject([{ id: 7, result: { content: [{ text: 'restarted web' }] } }]);
      expect((await post({ jsonrpc: '2.0', method: 'notifications/whatever' })).status).toBe(202);
      expect((await post({ id: 3 })).status).toBe(400);
      expect([...http.gateways.keys()]).toEqual([expect.stringMatching(/^stateless-/)]);
    } finally {
      await http.close();
    }
  }, 60_000);
});
