import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { cli, fixtureCommand, runsOf, tempDir, until } from './helpers.js';

/*
 * A server floods notifications to a client that stopped reading. Over stdio the gateway keeps at
 * most 8 MiB waiting for the client and drops the notifications past it (logging the count),
 * so its memory stays flat; the answer to the call still arrives once the client reads again.
 */

const COUNT = 60_000;
const BYTES = 5_000; // 300 MB of notifications in all

/** Resident memory of a process, in MB (Linux). */
const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
};

describe('mcp-gateway and a client that stops reading', () => {
  it('should drop notifications past its buffer, say how many, and still deliver the answer', async () => {
    const dir = tempDir();
    const [node, ...args] = cli(['mcp-gateway', '--', ...fixtureCommand(dir)]);
    const child = spawn(node!, args, { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const answers = new Map<number, unknown>();
    let notifications = 0;
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const m = JSON.parse(line) as { id?: number; method?: string };
      if (m.id !== undefined) answers.set(m.id, m);
      else notifications++;
    });
    const send = (m: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
    try {
      send({
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'slow', version: '1' } },
      });
      await until(() => answers.has(1), 30_000);
      send({ method: 'notifications/initialized' });
      const baseline = rssMb(child.pid!);

      // The client stops reading, then asks for the flood.
      child.stdout.pause();
      lines.pause();
      send({
        id: 2,
        method: 'tools/call',
        params: { name: 'flood', arguments: { count: COUNT, bytes: BYTES }, _meta: { progressToken: 'p' } },
      });
      let peak = baseline;
      await until(() => {
        peak = Math.max(peak, rssMb(child.pid!));
        return runsOf(dir).some((r) => r.tool === 'flood');
      }, 120_000);
      peak = Math.max(peak, rssMb(child.pid!));
      console.log(
        `gateway RSS: ${baseline.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most during ${(COUNT * BYTES) / 1e6} MB of notifications`,
      );
      expect(peak - baseline).toBeLessThan(100);

      child.stdout.resume();
      lines.resume();
      await until(() => answers.has(2), 60_000);
      expect(answers.get(2)).toMatchObject({ id: 2, result: { content: [{ text: `sent ${COUNT}` }] } });
      expect(notifications).toBeLessThan(COUNT);
      await until(() => /the client reads again: \d+ notification\(s\) dropped/.test(stderr));
      const dropped = Number(/the client reads again: (\d+) notification/.exec(stderr)![1]);
      expect(dropped + notifications).toBe(COUNT);
      expect(stderr).toContain('the client is not reading');
    } finally {
      child.stdin.end();
      child.kill();
    }
  }, 240_000);
});
