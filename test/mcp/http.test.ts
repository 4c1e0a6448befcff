import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseRecording, replayRecording } from 'assistant-safety';
import { cli, envelopeOf, fixtureCommand, tempDir, until } from './helpers.js';

describe('mcp-gateway --listen (Streamable HTTP)', () => {
  it('should give each MCP session its own safety session, behind a bearer token', async () => {
    const dir = tempDir();
    const [node, ...args] = cli([
      'mcp-gateway',
      '--listen',
      '127.0.0.1:0',
      '--record',
      join(dir, 'recording.jsonl'),
      '--',
      ...fixtureCommand(dir),
    ]);
    const child = spawn(node!, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const clients: Array<{ client: Client; transport: StreamableHTTPClientTransport }> = [];
    try {
      await until(() => /listening on (\S+) \(Authorization: Bearer (\w+)\)/.test(stderr), 30_000);
      const [, url, token] = /listening on (\S+) \(Authorization: Bearer (\w+)\)/.exec(stderr)!;

      const refused = await fetch(url!, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(refused.status).toBe(401);

      const open = async () => {
        const transport = new StreamableHTTPClientTransport(new URL(url!), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        });
        const client = new Client({ name: 'assistant-safety-test', version: '1.0.0' });
        await client.connect(transport);
        clients.push({ client, transport });
        return client;
      };
      const [a, b] = await Promise.all([open(), open()]);

      expect((await a.callTool({ name: 'find_service', arguments: { name: 'web' } })).isError).toBeFalsy();
      expect((await a.callTool({ name: 'restart_service', arguments: { name: 'web' } })).isError).toBeFalsy();
      // b's session has seen no read: a's reads do not count for it.
      const blocked = await b.callTool({ name: 'restart_service', arguments: { name: 'web' } });
      expect(envelopeOf(blocked as { content: unknown }).details).toMatchObject({ reasonCode: 'NO_VALIDATED_TARGET' });

      // Progress reaches the stream of the request it reports on (then the test cancels the call).
      const controller = new AbortController();
      const progress: number[] = [];
      const slow = b.callTool({ name: 'slow_read', arguments: { ms: 60_000 } }, undefined, {
        signal: controller.signal,
        onprogress: (p) => {
          progress.push(p.progress);
          controller.abort('the test cancels');
        },
      });
      await expect(slow).rejects.toThrow();
      expect(progress).toEqual([1]);

      for (const { transport } of clients) await transport.terminateSession();
      await until(() => (stderr.match(/ended: client-closed/g) ?? []).length === 2, 30_000);
    } finally {
      for (const { client } of clients) await client.close().catch(() => undefined);
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const entries = parseRecording(readFileSync(join(dir, 'recording.jsonl'), 'utf8'));
    expect(new Set(entries.map((e) => e.session)).size).toBe(2);
    expect(replayRecording(entries).divergences).toEqual([]);
  }, 90_000);
});
