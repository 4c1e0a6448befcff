import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers.js';

/*
 * When the server ends on its own, the gateway's last line says how: before, it said only "the
 * MCP server exited", so a crash, a kill and a clean exit read alike in the client's log.
 */
function gatewayOver(script: string) {
  const [node, ...args] = cli(['mcp-gateway', '--', process.execPath, '-e', script]);
  const child = spawn(node!, args, { cwd: tempDir(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stderr })),
  );
}

describe('mcp-gateway: the line that says the server exited', () => {
  it('gives the exit code of a server that exits', async () => {
    const run = await gatewayOver('process.exit(3)');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the MCP server exited \(exit code 3\)\n/);
  }, 60_000);

  it('gives the signal that ended a server that was killed', async () => {
    const run = await gatewayOver("process.kill(process.pid, 'SIGKILL')");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the MCP server exited \(killed by SIGKILL\)\n/);
  }, 60_000);
});
