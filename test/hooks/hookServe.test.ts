import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startHookServer } from '../../src/cli/hookServe.js';
import { HOOK_NONCE_HEADER, HOOK_PROOF_HEADER, hookProof } from '../../src/hooks/serveProof.js';
import { request } from 'node:http';
import { root, startTestServer, until } from '../server/helpers.js';
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

/** The installed command (`bin.js hook claude-code ARGS`), one process, as Claude Code runs it (`env` set too; undefined: unset). */
function command(
  dir: string,
  event: unknown,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'hook', 'claude-code', ...args], {
      env: { ...process.env, ASSISTANT_SAFETY_STATE_DIR: dir, ...env },
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

  it('streams to the live hub with the token the command has in its environment, which the server does not share', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-serve-live-'));
    const hub = await startTestServer();
    const server = await startHookServer(dir);
    expect(process.env.ASSISTANT_SAFETY_LIVE_TOKEN).toBeUndefined();
    try {
      const run = await command(dir, events('served-live').pre('Read', read(), 'r1'), ['--live', `${hub.origin}/`], {
        ASSISTANT_SAFETY_LIVE_TOKEN: hub.token,
      });
      expect(decisionOf(run)).toEqual({ decision: 'allow' });
      expect(run.stderr).toBe('');
      expect(server.handled).toBe(1);
      await until(() => (hub.hub.entriesOf('served-live')?.length ?? 0) > 0, 30_000);
      // Without the token, the server refuses the event as the command would.
      const without = await command(dir, events('served-live').pre('Read', read(), 'r2'), ['--live', `${hub.origin}/`]);
      expect(without.code).toBe(2);
      expect(without.stderr).toContain('--live: has no token');
      expect(server.handled).toBe(2);
    } finally {
      await server.close();
      await hub.close();
    }
  }, 60_000);

  it('takes the mode from the command’s environment (ASSISTANT_SAFETY_HOOK_MODE), not the server’s', async () => {
    // Before: the server read the mode from its own environment, so an agent started with
    // ASSISTANT_SAFETY_HOOK_MODE=shadow was enforced while hook serve ran (or the reverse).
    const deny = { decision: 'deny', reasonCode: 'NO_VALIDATED_TARGET' };
    const allow = { decision: 'allow' };
    const before = process.env.ASSISTANT_SAFETY_HOOK_MODE;
    let n = 0;
    try {
      for (const serverMode of ['shadow', 'enforce', undefined, 'loud']) {
        if (serverMode === undefined) delete process.env.ASSISTANT_SAFETY_HOOK_MODE;
        else process.env.ASSISTANT_SAFETY_HOOK_MODE = serverMode;
        const dir = mkdtempSync(join(tmpdir(), 'hook-serve-mode-'));
        const server = await startHookServer(dir);
        try {
          const edits = async (env: Record<string, string | undefined>) =>
            decisionOf(await command(dir, events(`mode-${n}`).pre('Edit', edit(), `w${n++}`), [], env));
          expect(await edits({ ASSISTANT_SAFETY_HOOK_MODE: 'shadow' })).toEqual(allow);
          expect(await edits({ ASSISTANT_SAFETY_HOOK_MODE: 'enforce' })).toEqual(deny);
          // Unset: enforce, whatever the server has.
          expect(await edits({ ASSISTANT_SAFETY_HOOK_MODE: undefined })).toEqual(deny);
          expect(await edits({ ASSISTANT_SAFETY_HOOK_MODE: '' })).toEqual(deny);
          // --shadow is shadow whatever the environment says.
          const shadowed = await command(dir, events(`mode-${n}`).pre('Edit', edit(), `w${n++}`), ['--shadow'], {
            ASSISTANT_SAFETY_HOOK_MODE: 'enforce',
          });
          expect(decisionOf(shadowed)).toEqual(allow);
          // A value that is no mode is refused, as the command refuses it without the server.
          const bad = await command(dir, events(`mode-${n}`).pre('Edit', edit(), `w${n++}`), [], {
            ASSISTANT_SAFETY_HOOK_MODE: 'loud',
          });
          expect(bad.code).toBe(2);
          expect(bad.stderr).toBe(
            'assistant-safety hook: ASSISTANT_SAFETY_HOOK_MODE must be enforce or shadow, got "loud"\n',
          );
          expect(server.handled).toBe(6);
        } finally {
          await server.close();
        }
      }
    } finally {
      if (before === undefined) delete process.env.ASSISTANT_SAFETY_HOOK_MODE;
      else process.env.ASSISTANT_SAFETY_HOOK_MODE = before;
    }
    // Without the server, the same refusal.
    const dir = mkdtempSync(join(tmpdir(), 'hook-serve-mode-alone-'));
    const alone = await command(dir, events('mode-alone').pre('Edit', edit(), 'w1'), [], {
      ASSISTANT_SAFETY_HOOK_MODE: 'loud',
    });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe(
      'assistant-safety hook: ASSISTANT_SAFETY_HOOK_MODE must be enforce or shadow, got "loud"\n',
    );
  }, 120_000);

  it('a spawned hook serve started in shadow enforces an agent started in enforce, and the reverse', async () => {
    for (const [serverMode, agentMode, expected] of [
      ['shadow', 'enforce', { decision: 'deny', reasonCode: 'NO_VALIDATED_TARGET' }],
      ['enforce', 'shadow', { decision: 'allow' }],
    ] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'hook-serve-mode-spawned-'));
      const child = spawn(process.execPath, [bin, 'hook', 'serve', '--state-dir', dir], {
        env: { ...process.env, ASSISTANT_SAFETY_HOOK_MODE: serverMode },
        stdio: 'ignore',
      });
      try {
        const file = join(dir, 'serve.json');
        for (let i = 0; i < 500 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
        expect(existsSync(file)).toBe(true);
        const run = await command(dir, events('mode-spawned').pre('Edit', edit(), 'w1'), [], {
          ASSISTANT_SAFETY_HOOK_MODE: agentMode,
        });
        expect(decisionOf(run)).toEqual(expected);
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('close', r));
      }
    }
  }, 60_000);

  it('hands an event to the server of the state folder its own options name, --state-dir=DIR included', async () => {
    // Before, `--state-dir=DIR` (a form the full parser takes) was not seen: the event went to the
    // default folder's server and was decided on that folder's sessions.
    const defaultDir = mkdtempSync(join(tmpdir(), 'hook-serve-default-'));
    const other = mkdtempSync(join(tmpdir(), 'hook-serve-other-'));
    const server = await startHookServer(defaultDir);
    try {
      const e = events('named-dir');
      const run = await command(defaultDir, e.pre('Read', read(), 'r1'), [`--state-dir=${other}`]);
      expect(decisionOf(run)).toEqual({ decision: 'allow' });
      expect(server.handled).toBe(0);
      const served = await command(other, e.pre('Read', read(), 'r2'), ['--state-dir', defaultDir]);
      expect(decisionOf(served)).toEqual({ decision: 'allow' });
      expect(server.handled).toBe(1);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('hands the server path options made absolute against the agent’s folder, not the server’s', async () => {
    // Before, `--record rec.jsonl` handed over as it was wrote the recording in the server's folder.
    const dir = mkdtempSync(join(tmpdir(), 'hook-serve-paths-'));
    const agentCwd = mkdtempSync(join(tmpdir(), 'hook-serve-agent-'));
    const server = await startHookServer(dir);
    try {
      const run = await new Promise<number | null>((done, reject) => {
        const child = spawn(process.execPath, [bin, 'hook', 'claude-code', '--record', 'rec.jsonl'], {
          cwd: agentCwd,
          env: { ...process.env, ASSISTANT_SAFETY_STATE_DIR: dir },
          stdio: ['pipe', 'ignore', 'ignore'],
        });
        child.on('error', reject);
        child.on('close', done);
        child.stdin.end(JSON.stringify(events('paths').pre('Read', read(), 'r1')));
      });
      expect(run).toBe(0);
      expect(server.handled).toBe(1);
      expect(existsSync(join(agentCwd, 'rec.jsonl'))).toBe(true);
    } finally {
      await server.close();
    }
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

  it('never hands the token to a process squatting serve.json’s port, nor takes its answer', async () => {
    // serve.json outlived its server (killed, or the machine restarted) and another local user's
    // process listens on its port now. Before: the command sent it the token in a header and took
    // its answer, so the squatter learnt the token and let every call through ({ code: 0 }).
    const dir = mkdtempSync(join(tmpdir(), 'hook-serve-squat-'));
    const token = 'a'.repeat(48);
    const received: string[] = [];
    const allow = JSON.stringify({ code: 0, out: '', err: '' });
    const squatter = createNetServer((socket) =>
      socket.on('data', (d: Buffer) => {
        received.push(String(d));
        socket.end(`HTTP/1.1 200 OK\r\ncontent-length: ${allow.length}\r\n\r\n${allow}`);
      }),
    );
    await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', () => r()));
    const { port } = squatter.address() as { port: number };
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ port, token, pid: process.pid }), { mode: 0o600 });
    try {
      const run = await command(dir, events('squat').pre('Edit', edit(), 'w1'));
      expect(decisionOf(run)).toEqual({ decision: 'deny', reasonCode: 'NO_VALIDATED_TARGET' });
      expect(received.join('')).not.toContain(token);
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  }, 60_000);

  it('sends nothing when the server serve.json names has exited', async () => {
    // Its pid is gone: whatever listens on the port now is not it, and gets no event.
    const dir = mkdtempSync(join(tmpdir(), 'hook-serve-dead-'));
    const received: string[] = [];
    const listener = createNetServer((socket) => socket.on('data', (d: Buffer) => received.push(String(d))));
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
    const { port } = listener.address() as { port: number };
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ port, token: 't', pid: gone }), { mode: 0o600 });
    try {
      const run = await command(dir, events('dead').pre('Edit', edit(), 'w1'));
      expect(decisionOf(run)).toEqual({ decision: 'deny', reasonCode: 'NO_VALIDATED_TARGET' });
      expect(received).toEqual([]);
    } finally {
      await new Promise((r) => listener.close(r));
    }
  }, 60_000);

  it('decides an event larger than the server reads in the command, not refused', async () => {
    // Before: the 5 MB Edit went to the server, which cut the request at 4 MiB, and the call was refused (exit 2).
    const dir = mkdtempSync(join(tmpdir(), 'hook-serve-big-'));
    const server = await startHookServer(dir);
    try {
      const big = { ...edit(), new_string: 'x'.repeat(5 * 1024 * 1024) };
      expect(decisionOf(await command(dir, events('big').pre('Edit', big, 'w1')))).toEqual({
        decision: 'deny',
        reasonCode: 'NO_VALIDATED_TARGET',
      });
      expect(server.handled).toBe(0);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('refuses the call when the server took the event and then failed to answer', async () => {
    // A listener that reads the request and hangs up, or answers without a length: the server may
    // have begun the call, so the command neither decides again nor lets it through.
    for (const reply of ['', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n']) {
      const dir = mkdtempSync(join(tmpdir(), 'hook-serve-broken-'));
      const listener = createNetServer((socket) => socket.once('data', () => socket.end(reply)));
      await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
      const { port } = listener.address() as { port: number };
      writeFileSync(join(dir, 'serve.json'), JSON.stringify({ port, token: 't', pid: process.pid }), { mode: 0o600 });
      try {
        const run = await command(dir, events('broken').pre('Read', read(), 'r1'));
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(/the hook server answered (nothing|200) without an answer; the call is refused/);
      } finally {
        await new Promise((r) => listener.close(r));
      }
    }
  }, 60_000);

  it('answers a request that is not the hook command’s with a status and an error that names what is wrong', async () => {
    // Before: a bare 401/405/400 with an empty body, any Host header taken, an oversized body cut mid-request.
    const dir = mkdtempSync(join(tmpdir(), 'hook-serve-errors-'));
    const child = spawn(process.execPath, [bin, 'hook', 'serve', '--state-dir', dir], { stdio: 'ignore' });
    try {
      const file = join(dir, 'serve.json');
      for (let i = 0; i < 500 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
      const { port, token } = JSON.parse(readFileSync(file, 'utf8')) as { port: number; token: string };
      const nonce = '0123456789abcdef0123456789abcdef';
      const signed = { [HOOK_NONCE_HEADER]: nonce, [HOOK_PROOF_HEADER]: hookProof(token, nonce) };
      const call = (headers: Record<string, string>, body?: string, method = 'POST') =>
        new Promise<{ status: number; error: unknown; proof: unknown; allow: unknown }>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, method, headers, agent: false }, (res) => {
            let text = '';
            res.on('data', (d: Buffer) => (text += String(d)));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                error: (JSON.parse(text) as { error?: unknown }).error,
                proof: res.headers[HOOK_PROOF_HEADER],
                allow: res.headers.allow,
              }),
            );
          });
          req.on('error', reject);
          if (body === undefined) req.flushHeaders();
          else req.end(body);
        });
      expect(await call({ ...signed, host: `evil.example:${port}` }, '{}')).toMatchObject({
        status: 403,
        error: 'unexpected Host header',
      });
      expect(await call(signed, undefined, 'GET')).toMatchObject({ status: 405, error: 'only POST', allow: 'POST' });
      expect(await call({ 'x-assistant-safety-hook-token': token }, '{}')).toMatchObject({
        status: 401,
        error: expect.stringContaining(HOOK_PROOF_HEADER) as unknown,
      });
      expect(await call({ ...signed, [HOOK_PROOF_HEADER]: 'f'.repeat(64) }, '{}')).toMatchObject({
        status: 401,
        error: `wrong ${HOOK_PROOF_HEADER}`,
      });
      const bad = await call(signed, '{"args": [1], ');
      expect(bad).toMatchObject({ status: 400, error: expect.stringMatching(/^the body is not JSON: /) as unknown });
      expect(bad.proof).toMatch(/^[0-9a-f]{64}$/);
      expect(await call(signed, '{"args":[1],"input":"{}"}')).toMatchObject({
        status: 400,
        error: 'args: not an array of strings',
      });
      expect(await call(signed, '{"args":[]}')).toMatchObject({ status: 400, error: 'input: not a string' });
      expect(await call(signed, '{"args":[],"input":"{}","env":[]}')).toMatchObject({
        status: 400,
        error: 'env: not a JSON object',
      });
      expect(await call(signed, '{"args":[],"input":"{}","env":{"ASSISTANT_SAFETY_HOOK_MODE":1}}')).toMatchObject({
        status: 400,
        error: 'env.ASSISTANT_SAFETY_HOOK_MODE: not a string',
      });
      // Declared up front: refused before the body is read (only the headers are sent here).
      expect(await call({ ...signed, 'content-length': String(5 * 1024 * 1024) }, undefined)).toMatchObject({
        status: 413,
        error: `the body is larger than ${4 * 1024 * 1024} bytes`,
      });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
  }, 60_000);
});
