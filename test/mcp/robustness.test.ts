import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { cli, fixtureCommand, tempDir, until } from './helpers.js';

/** The gateway over raw stdio, to send what no SDK client would. */
function rawGateway(dir: string) {
  const [node, ...args] = cli(['mcp-gateway', '--', ...fixtureCommand(dir)]);
  const child = spawn(node!, args, { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: unknown[] = [];
  createInterface({ input: child.stdout }).on('line', (l) => lines.push(JSON.parse(l)));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const send = (text: string) => child.stdin.write(text + '\n');
  return { child, lines, send, exited, stderr: () => stderr };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('mcp-gateway: malformed messages and a client that goes away', () => {
  it('should answer malformed messages with JSON-RPC errors and end the server when the client disconnects', async () => {
    const dir = tempDir();
    const gw = rawGateway(dir);
    try {
      gw.send('this is not json');
      gw.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 5 }));
      gw.send(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { arguments: {} } }));
      await until(() => gw.lines.length >= 3, 30_000);
      expect(gw.lines[0]).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
      expect(gw.lines[1]).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
      expect(gw.lines[2]).toMatchObject({ jsonrpc: '2.0', id: 8, error: { code: -32602 } });
      expect((gw.lines[2] as { error: { message: string } }).error.message).toContain('params.name');

      await until(() => {
        try {
          return readFileSync(join(dir, 'server.pid'), 'utf8').length > 0;
        } catch {
          return false;
        }
      }, 30_000);
      const pid = Number(readFileSync(join(dir, 'server.pid'), 'utf8'));
      expect(alive(pid)).toBe(true);
      gw.child.stdin.end();
      expect(await gw.exited).toBe(0);
      await until(() => !alive(pid));
      expect(gw.stderr()).toContain('the client disconnected');
    } finally {
      gw.child.kill();
    }
  }, 60_000);
});

describe('mcp-gateway with a server that cannot start', () => {
  it('should say so on stderr and exit 2', async () => {
    const dir = tempDir();
    const [node, ...args] = cli(['mcp-gateway', '--', join(dir, 'no-such-server')]);
    const child = spawn(node!, args, { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr).toContain(`cannot start ${join(dir, 'no-such-server')}`);
  }, 60_000);
});
