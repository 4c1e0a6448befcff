import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from 'assistant-safety/server';
import { cli, connect, fixtureCommand, ROOT, tempDir, until } from './helpers.js';

describe('mcp-gateway --live', () => {
  it('should show the gateway session live on a running serve', async () => {
    const dir = tempDir();
    for (const d of ['recordings', 'app']) mkdirSync(join(dir, d));
    const server = await startServer({
      recordingsDir: join(dir, 'recordings'),
      machinesDir: join(ROOT, 'machines'),
      appDir: join(dir, 'app'),
    });
    const sessions = async () => {
      const res = await fetch(`${server.origin}/api/sessions`, {
        headers: { 'x-assistant-safety-token': server.token },
      });
      return ((await res.json()) as { sessions: Array<{ agent?: string; events: number; state: string }> }).sessions;
    };
    const gateway = await connect(cli(['mcp-gateway', '--live', server.url, '--', ...fixtureCommand(dir)]), dir);
    try {
      await gateway.client.callTool({ name: 'restart_service', arguments: { name: 'web' } }); // blocked
      await gateway.client.callTool({ name: 'find_service', arguments: { name: 'web' } });
      await gateway.client.callTool({ name: 'restart_service', arguments: { name: 'web' } });
      // create, blocked begin, begin + end of the read, begin + end of the write
      await until(async () => (await sessions()).some((s) => s.events >= 6));
      const [live] = await sessions();
      expect(live!.agent).toMatch(/^mcp-gateway /);
      expect(live!.state).toBe('VERIFYING');
      expect(server.hub.list()).toHaveLength(1);
    } finally {
      await gateway.client.close();
      await gateway.exited;
      await server.close();
    }
  }, 60_000);
});
