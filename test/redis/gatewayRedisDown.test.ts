import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../mcp/helpers.js';

/*
 * `mcp-gateway --redis URL --session ID` with Redis down says Redis is not answering, once: before it
 * said "cannot start node: Reached the max retries per request limit", blaming the MCP server.
 */

describe('mcp-gateway on a shared session with Redis down', () => {
  it('should name Redis, not the server, and exit 2', () => {
    const [node, ...args] = cli([
      'mcp-gateway',
      '--redis',
      'redis://127.0.0.1:1',
      '--session',
      's',
      '--',
      process.execPath,
      '-e',
      '',
    ]);
    const r = spawnSync(node!, args, { cwd: ROOT, encoding: 'utf8', input: '', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^mcp-gateway: cannot start: Redis at redis:\/\/127\.0\.0\.1:1 is not answering \(/m);
    expect(r.stderr).not.toMatch(/cannot start .*node/);
    expect(r.stderr.match(/mcp-gateway: redis: connect ECONNREFUSED/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });
});
