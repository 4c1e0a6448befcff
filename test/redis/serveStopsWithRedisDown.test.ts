import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../mcp/helpers.js';

/*
 * `serve --redis URL` stops on the first Ctrl-C even when Redis never answered: before, the bridge's
 * close waited on a command ioredis never settles, so the process ignored the first signal (and, under a
 * supervisor's single SIGTERM or `timeout`, ran on until killed).
 */

describe('serve --redis with Redis down', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`should stop on one ${signal}`, async () => {
      const [node, ...args] = cli(['serve', '--port', '0', '--redis', 'redis://127.0.0.1:1']);
      const child = spawn(node!, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += String(d)));
      child.stderr!.on('data', (d: Buffer) => (out += String(d)));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Following Redis, and Redis refused at least once: the state the old close hung in.
      await expect.poll(() => out, { timeout: 30_000 }).toMatch(/following the sessions in redis:\/\/127\.0\.0\.1:1/);
      await expect.poll(() => out, { timeout: 30_000 }).toMatch(/serve: redis: .*\(still trying\)/);
      child.kill(signal);
      expect(await exited).toBe(0);
    }, 60_000);
  }
});
