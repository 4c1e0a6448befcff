import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * `mcp-gateway --redis URL --session ID` with Redis down says Redis is not answering, once: before it
 * said "cannot start node: Reached the max retries per request limit", blaming the MCP server.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('mcp-gateway on a shared session with Redis down', () => {
  it('should name Redis, not the server, and exit 2', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'src', 'cli', 'bin.ts'),
        'mcp-gateway',
        '--redis',
        'redis://127.0.0.1:1',
        '--session',
        's',
        '--',
        process.execPath,
        '-e',
        '',
      ],
      { cwd: ROOT, encoding: 'utf8', input: '', timeout: 60_000 },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^mcp-gateway: cannot start: Redis at redis:\/\/127\.0\.0\.1:1 is not answering \(/m);
    expect(r.stderr).not.toMatch(/cannot start .*node/);
    expect(r.stderr.match(/mcp-gateway: redis: connect ECONNREFUSED/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });
});
