import { describe, expect, it } from 'vitest';
import { cli, connect, fixtureCommand, tempDir } from './helpers.js';

/* A tool result over the 10 MiB read limit is answered as an error for that call; the session goes on. */

describe('mcp-gateway and an answer over the read limit', () => {
  it('should answer that call with an error and keep the session', async () => {
    const dir = tempDir();
    const gateway = await connect(cli(['mcp-gateway', '--', ...fixtureCommand(dir)]), dir);
    try {
      const huge = gateway.client.callTool({ name: 'huge', arguments: { bytes: 11 * 1024 * 1024 } });
      await expect(huge).rejects.toThrow(/over the gateway's read limit of 10485760 bytes/);
      expect(await gateway.client.callTool({ name: 'get_status', arguments: { name: 'web' } })).toMatchObject({
        content: [{ type: 'text', text: '{"service":"web","status":"running"}' }],
      });
      // A long answer under the limit still goes through.
      const big = (await gateway.client.callTool({ name: 'huge', arguments: { bytes: 2 * 1024 * 1024 } })) as {
        content: Array<{ text: string }>;
      };
      expect(big.content[0]!.text.length).toBe(2 * 1024 * 1024);
      expect(gateway.stderr()).toMatch(
        /over 10485760 bytes \(the read limit\); it was dropped and request \d+ answered/,
      );
    } finally {
      await gateway.client.close();
    }
  }, 60_000);
});
