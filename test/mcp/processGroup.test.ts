import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, connect, fixtureCommand, ROOT, tempDir, until } from './helpers.js';

/*
 * `npx -y server` puts a parent between the gateway and the real server. The gateway starts the
 * server in its own process group and ends the whole group when the client goes: stdin closed,
 * SIGTERM after 1 s, SIGKILL after 1 s more. Here the real server ignores both the end of its
 * stdin and SIGTERM, the worst case: only the group's SIGKILL ends it.
 */

const WRAPPER = join(ROOT, 'test', 'mcp', 'npxLikeWrapper.mjs');

/** Whether a process still runs (a zombie has ended: this container's init may never reap orphans). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

const pidIn = (file: string) => {
  try {
    return Number(readFileSync(file, 'utf8')) || undefined;
  } catch {
    return undefined;
  }
};

describe('mcp-gateway: the server process group', () => {
  it('should leave no process of an npx-style wrapper and its server behind, and exit within 3 s of the client closing', async () => {
    const dir = tempDir();
    const server = [process.execPath, WRAPPER, join(dir, 'wrapper.pid'), ...fixtureCommand(dir), '--stubborn'];
    const gateway = await connect(cli(['mcp-gateway', '--', ...server]), dir);
    const { tools } = await gateway.client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_status');
    await until(() => pidIn(join(dir, 'wrapper.pid')) !== undefined && pidIn(join(dir, 'server.pid')) !== undefined);
    const wrapperPid = pidIn(join(dir, 'wrapper.pid'))!;
    const serverPid = pidIn(join(dir, 'server.pid'))!;
    expect(alive(wrapperPid) && alive(serverPid)).toBe(true);

    const closedAt = Date.now();
    await gateway.client.close();
    const code = await gateway.exited;
    const seconds = (Date.now() - closedAt) / 1000;
    expect(code).toBe(0);
    expect(seconds).toBeLessThan(3);
    expect(alive(wrapperPid)).toBe(false);
    expect(alive(serverPid)).toBe(false);
    expect(gateway.stderr()).toContain('the client disconnected');
  }, 60_000);

  it('should end the server group on SIGTERM to the gateway', async () => {
    const dir = tempDir();
    const server = [process.execPath, WRAPPER, join(dir, 'wrapper.pid'), ...fixtureCommand(dir), '--stubborn'];
    const gateway = await connect(cli(['mcp-gateway', '--', ...server]), dir);
    await gateway.client.listTools();
    await until(() => pidIn(join(dir, 'server.pid')) !== undefined);
    const serverPid = pidIn(join(dir, 'server.pid'))!;
    const gatewayPid = gateway.transport.pid!;
    process.kill(gatewayPid, 'SIGTERM');
    await gateway.exited;
    expect(alive(serverPid), gateway.stderr()).toBe(false);
    expect(alive(pidIn(join(dir, 'wrapper.pid'))!)).toBe(false);
    await gateway.client.close();
  }, 60_000);
});
