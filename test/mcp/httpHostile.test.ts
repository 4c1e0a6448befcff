import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSafetySession } from 'assistant-safety';
import { listenHttp, spawnMcpServer } from 'assistant-safety/mcp';
import { cli, fixtureCommand, tempDir, until } from './helpers.js';

/*
 * `mcp-gateway --listen` as a hostile client or web page would meet it. Before: a page on another
 * origin holding the token could start and drive a session (no Origin check, which the MCP transport
 * requires), a request declaring a huge body was waited on for Node's 300 s instead of refused, and
 * PUT was told to "start with a POST of initialize".
 */

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } },
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request on its own connection; `body` undefined: only the headers are sent. */
function call(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += String(d)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    if (body === undefined) req.flushHeaders();
    else req.end(body);
  });
}

describe('mcp-gateway --listen against a hostile page or client', () => {
  let child: ChildProcess;
  let url = '';
  let token = '';
  beforeAll(async () => {
    const dir = tempDir();
    const [node, ...args] = cli(['mcp-gateway', '--listen', '127.0.0.1:0', '--', ...fixtureCommand(dir)]);
    child = spawn(node!, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
    await until(() => /listening on (\S+) \(Authorization: Bearer (\w+)\)/.test(stderr), 30_000);
    const found = /listening on (\S+) \(Authorization: Bearer (\w+)\)/.exec(stderr)!;
    url = found[1]!;
    token = found[2]!;
  }, 60_000);
  afterAll(() => void child.kill('SIGTERM'));

  const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  it('should refuse a request from another origin with 403, token or not, and start no session', async () => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${new URL(url).port}.evil.example`]) {
      const refused = await call(url, 'POST', { ...json, authorization: `Bearer ${token}`, origin }, INITIALIZE);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text)).toMatchObject({ error: { message: `origin not allowed: ${origin}` } });
      expect(refused.headers['mcp-session-id']).toBeUndefined();
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    }
    // The listener's own origin is a page it could serve: let through.
    const own = await call(
      url,
      'POST',
      { ...json, authorization: `Bearer ${token}`, origin: new URL(url).origin },
      INITIALIZE,
    );
    expect(own.status).toBe(200);
    const session = own.headers['mcp-session-id'] as string;
    expect(
      (await call(url, 'DELETE', { authorization: `Bearer ${token}`, 'mcp-session-id': session }, '')).status,
    ).toBe(200);
  }, 60_000);

  it('should refuse a body declared over 4 MiB with 413 before reading any of it', async () => {
    const answer = await call(url, 'POST', {
      ...json,
      authorization: `Bearer ${token}`,
      'content-length': String(5 * 1024 * 1024),
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { message: `body over ${4 * 1024 * 1024} bytes` } });
  });

  it('should refuse a method MCP does not use with 405 and Allow', async () => {
    const answer = await call(url, 'PUT', { ...json, authorization: `Bearer ${token}` }, '{}');
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, POST, DELETE');
    expect(JSON.parse(answer.text)).toMatchObject({
      error: { message: 'PUT is not an MCP method: GET, POST or DELETE' },
    });
  });
});

describe('listenHttp timeouts', () => {
  it('should answer 408 and close a request whose body does not all come within requestMs, yet let a long call finish', async () => {
    const http = await listenHttp({
      connectServer: () => {
        const [command, ...args] = fixtureCommand(tempDir());
        return spawnMcpServer(command!, args);
      },
      createSession: (id) => createSafetySession({ id }),
      timeouts: { requestMs: 300, checkIntervalMs: 50 },
    });
    try {
      const { port } = new URL(http.url);
      const reply = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1');
        let text = '';
        socket.on('data', (d: Buffer) => (text += String(d)));
        socket.on('close', () => resolve(text));
        socket.write(
          `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${http.token}\r\n` +
            'content-type: application/json\r\ncontent-length: 100\r\n\r\n{"js',
        );
      });
      expect(reply).toMatch(/^HTTP\/1\.1 408 /);

      // The limit is on sending the request, not on the answer: a call longer than it still ends.
      const transport = new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { Authorization: `Bearer ${http.token}` } },
      });
      const client = new Client({ name: 'timeouts', version: '1.0.0' });
      await client.connect(transport);
      const slow = await client.callTool({ name: 'slow_read', arguments: { ms: 1500 } });
      expect(slow.isError).toBeFalsy();
      await client.close();
    } finally {
      await http.close();
    }
  }, 60_000);
});
