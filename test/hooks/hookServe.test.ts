import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startHookServer } from '../../src/cli/hookServe.js';
import { root } from '../server/helpers.js';
import { edit, events, read } from './fixtures.js';
import { decisionOf, type HookRun } from './hookProcess.js';

/*
 * The resident mode: `hook serve` keeps the gate loaded, and the hook command's small entry
 * hands each event to it (127.0.0.1, the token from the 0600 serve.json). When it is not
 * running, or its file points at nothing, the command decides by itself: never fails open.
 */

let bin: string;
beforeAll(() => {
  // Inside the repository, so the bundle's packages (zod, xstate) resolve from its node_modules.
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  const out = mkdtempSync(join(root, 'node_modules', '.cache', 'hook-serve-bin-'));
  const built = spawnSync(
    join(root, 'node_modules', '.bin', 'esbuild'),
    [
      join(root, 'src/cli/bin.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      '--splitting',
      `--outdir=${out}`,
      '--log-level=error',
    ],
    { encoding: 'utf8' },
  );
  if (built.status !== 0) throw new Error(built.stderr);
  bin = join(out, 'bin.js');
  writeFileSync(join(out, 'package.json'), '{"type":"module"}');
}, 60_000);

/** The installed command (`bin.js hook claude-code`), one process, as Claude Code runs it. */
function command(dir: string, event: unknown): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'hook', 'claude-code'], {
      env: { ...process.env, ASSISTANT_SAFETY_STATE_DIR: dir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => {
      const text = stdout.trim();
      resolve({ code, stdout, stderr, ...(text && { json: JSON.parse(text) as Record<string, unknown> }) });
    });
    child.stdin.end(JSON.stringify(event));
  });
}

describe('hook serve', () => {
  it('answers the command’s events while it runs, and the command decides alone once it stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-serve-'));
    const e = events('served');
    const server = await startHookServer(dir);
    const file = join(dir, 'serve.json');
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    try {
      expect(decisionOf(await command(dir, e.pre('Edit', edit(), 'w1')))).toEqual({
        decision: 'deny',
        reasonCode: 'NO_VALIDATED_TARGET',
      });
      expect(decisionOf(await command(dir, e.pre('Read', read(), 'r1')))).toEqual({ decision: 'allow' });
      expect((await command(dir, e.post('Read', read(), 'r1'))).code).toBe(0);
      expect(server.handled).toBe(3);

      // Without the token: refused.
      const plain = await fetch(`http://127.0.0.1:${server.port}/`, { method: 'POST', body: '{}' });
      expect(plain.status).toBe(401);
    } finally {
      await server.close();
    }
    // Stopped: the same session goes on, decided by the command itself.
    expect(decisionOf(await command(dir, e.pre('Edit', edit(), 'w2')))).toEqual({ decision: 'allow' });
  }, 60_000);

  it('decides alone when serve.json points at nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-serve-stale-'));
    mkdirSync(dir, { recursive: true });
    const server = await startHookServer(dir);
    const stale = readFileSync(join(dir, 'serve.json'), 'utf8');
    await server.close();
    writeFileSync(join(dir, 'serve.json'), stale, { mode: 0o600 });
    expect(decisionOf(await command(dir, events('stale').pre('Edit', edit(), 'w1')))).toEqual({
      decision: 'deny',
      reasonCode: 'NO_VALIDATED_TARGET',
    });
  }, 60_000);

  it('refuses the call when the server took the event and then failed to answer', async () => {
    // A listener that reads the request and hangs up, or answers without a length: the server may
    // have begun the call, so the command neither decides again nor lets it through.
    for (const reply of ['', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n']) {
      const dir = mkdtempSync(join(tmpdir(), 'hook-serve-broken-'));
      const listener = createNetServer((socket) => socket.once('data', () => socket.end(reply)));
      await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
      const { port } = listener.address() as { port: number };
      writeFileSync(join(dir, 'serve.json'), JSON.stringify({ port, token: 't', pid: 1 }), { mode: 0o600 });
      try {
        const run = await command(dir, events('broken').pre('Read', read(), 'r1'));
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(/the hook server answered (nothing|200) without an answer; the call is refused/);
      } finally {
        await new Promise((r) => listener.close(r));
      }
    }
  }, 60_000);
});
