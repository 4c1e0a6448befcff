import { describe, expect, it } from 'vitest';
import { useTestRedis } from '../redis/useTestRedis.js';
import { cli, connect, fixtureCommand, tempDir } from './helpers.js';

/*
 * A session lost from Redis (flushed, restarted without persistence) under `mcp-gateway --redis`:
 * the library's message says to call delete(id), which a gateway started from the command line
 * cannot; the CLI's says what its user can do.
 */

const env = useTestRedis();

describe('mcp-gateway --redis after its session was lost', () => {
  it('should tell a CLI user to restart with another --session, not to call delete()', async () => {
    const dir = tempDir();
    const gateway = await connect(
      cli(['mcp-gateway', '--redis', env.redis.url, '--session', 'lost1', '--', ...fixtureCommand(dir)]),
      dir,
    );
    try {
      const first = (await gateway.client.callTool({ name: 'get_status', arguments: { name: 'web' } })) as {
        isError?: boolean;
      };
      expect(first.isError).toBeFalsy();
      await env.raw.flushall();
      const error = await gateway.client.callTool({ name: 'get_status', arguments: { name: 'web' } }).then(
        (r) => JSON.stringify(r),
        (e: unknown) => (e as Error).message,
      );
      expect(error).toMatch(/session "lost1".*is gone from Redis/);
      expect(error).toContain('restart the gateway with another --session');
      expect(error).toContain(`redis-cli DEL 'assistant-safety:{lost1}:s'`);
      expect(error).not.toContain('delete(');
    } finally {
      await gateway.client.close();
    }
  });
});
