import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, until } from '../server/helpers.js';
import { cli, connect, fixtureCommand, tempDir, until as untilAsync } from '../mcp/helpers.js';
import { edit, events, read } from '../hooks/fixtures.js';
import { bundleHook, decisionOf, runHook } from '../hooks/hookProcess.js';
import { runCli } from './runCli.js';

/*
 * Any local user can read a process's command line (/proc/PID/cmdline), only its owner its
 * environment. Every command that takes a token takes it from the environment:
 * ASSISTANT_SAFETY_LIVE_TOKEN for a --live URL without ?token=, ASSISTANT_SAFETY_GATEWAY_TOKEN for
 * mcp-gateway --listen. A token on the command line still works, with a warning naming the
 * variable; given both ways, the two must agree. mcp-config writes the live token in the entry's
 * env, and hook install leaves it out of the hook command.
 */

const LIVE = 'ASSISTANT_SAFETY_LIVE_TOKEN';
const GATEWAY = 'ASSISTANT_SAFETY_GATEWAY_TOKEN';
const LIVE_WARNING =
  'warning: a token on the command line is readable by other local users (/proc/PID/cmdline): give --live without ?token= and set ASSISTANT_SAFETY_LIVE_TOKEN instead';

/** What other local users read of process `pid`: its command line, the NULs between words as spaces. */
const cmdlineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');

let server: Awaited<ReturnType<typeof startTestServer>>;
let bare: string;
let bundle: string;
beforeAll(async () => {
  server = await startTestServer();
  bare = `${server.origin}/`;
  bundle = bundleHook();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('mcp-gateway --live with the token in ASSISTANT_SAFETY_LIVE_TOKEN', () => {
  it('streams to the hub, shows no token on its command line and hands none to the server', async () => {
    const dir = tempDir();
    const gateway = await connect(cli(['mcp-gateway', '--live', bare, '--', ...fixtureCommand(dir)]), dir, {
      [LIVE]: server.token,
    });
    try {
      await gateway.client.callTool({ name: 'find_service', arguments: { name: 'web' } });
      await gateway.client.callTool({ name: 'restart_service', arguments: { name: 'web' } });
      await untilAsync(() => server.hub.list().some((s) => s.agent?.startsWith('mcp-gateway ') && s.events >= 5));
      expect(cmdlineOf(gateway.pid)).toContain(`--live ${bare}`);
      expect(cmdlineOf(gateway.pid)).not.toContain(server.token);
      // The MCP server is another program: the gateway's tokens are not in its environment.
      const serverPid = Number(readFileSync(join(dir, 'server.pid'), 'utf8'));
      expect(readFileSync(`/proc/${serverPid}/environ`, 'utf8')).not.toContain(server.token);
      expect(gateway.stderr()).not.toContain('warning');
    } finally {
      await gateway.client.close();
      await gateway.exited;
    }
  }, 60_000);

  it('refuses a URL whose token is not the one in the environment, before it starts the server', async () => {
    const r = await runCliWithEnv({ [LIVE]: 'one' }, () =>
      runCli(['mcp-gateway', '--live', `${bare}?token=two`, '--', process.execPath, '-e', '']),
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      "--live: the URL's token and ASSISTANT_SAFETY_LIVE_TOKEN differ; give the token once, in ASSISTANT_SAFETY_LIVE_TOKEN, and the URL without ?token=",
    );
  });

  it('still takes the token in the URL, and warns', async () => {
    const dir = tempDir();
    const gateway = await connect(cli(['mcp-gateway', '--live', server.url, '--', ...fixtureCommand(dir)]), dir);
    try {
      await gateway.client.callTool({ name: 'find_service', arguments: { name: 'db' } });
      expect(gateway.stderr()).toContain(`mcp-gateway: ${LIVE_WARNING}`);
    } finally {
      await gateway.client.close();
      await gateway.exited;
    }
  }, 60_000);
});

/** Starts `mcp-gateway --listen 127.0.0.1:0 ...` with `env`; resolves once it listens. */
async function listen(args: string[], env: Record<string, string>) {
  const dir = tempDir();
  const [node, ...rest] = cli(['mcp-gateway', '--listen', '127.0.0.1:0', ...args, '--', ...fixtureCommand(dir)]);
  const child: ChildProcess = spawn(node!, rest, {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await untilAsync(() => /listening on \S+ \(/.test(stderr) || child.exitCode !== null, 30_000);
  const url = /listening on (\S+) \(/.exec(stderr)?.[1];
  return { child, exited, stderr: () => stderr, url };
}

describe('mcp-gateway --listen with the token in ASSISTANT_SAFETY_GATEWAY_TOKEN', () => {
  it('takes requests with that token only, and shows it neither on its command line nor in its log', async () => {
    const token = 'gateway-token-from-the-environment';
    const gateway = await listen([], { [GATEWAY]: token });
    try {
      expect(gateway.stderr()).toContain('(Authorization: Bearer $ASSISTANT_SAFETY_GATEWAY_TOKEN)');
      expect(gateway.stderr()).not.toContain(token);
      expect(cmdlineOf(gateway.child.pid!)).not.toContain(token);
      const wrong = await fetch(gateway.url!, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json', authorization: 'Bearer not-it' },
      });
      expect(wrong.status).toBe(401);
      const transport = new StreamableHTTPClientTransport(new URL(gateway.url!), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      });
      const client = new Client({ name: 'assistant-safety-test', version: '1.0.0' });
      await client.connect(transport);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('find_service');
      await client.close();
    } finally {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
    }
  }, 60_000);

  it('still takes --token, and warns', async () => {
    const gateway = await listen(['--token', 'on-the-command-line'], {});
    try {
      expect(gateway.stderr()).toContain(
        'mcp-gateway: warning: a token on the command line is readable by other local users (/proc/PID/cmdline): set ASSISTANT_SAFETY_GATEWAY_TOKEN instead of --token',
      );
      expect(gateway.stderr()).toContain('(Authorization: Bearer the --token value)');
    } finally {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
    }
  }, 60_000);

  it('refuses --token when the environment holds another', async () => {
    const gateway = await listen(['--token', 'one'], { [GATEWAY]: 'two' });
    expect(await gateway.exited).toBe(2);
    expect(gateway.stderr()).toContain(
      '--token and ASSISTANT_SAFETY_GATEWAY_TOKEN differ; give the token once, in ASSISTANT_SAFETY_GATEWAY_TOKEN',
    );
  }, 60_000);
});

/** Runs `fn` with `env` set in this process's environment (what the in-process CLI reads), then restores it. */
async function runCliWithEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('mcp-config --live', () => {
  const entryOf = (out: string) =>
    (JSON.parse(out) as { mcpServers: Record<string, { args: string[]; env?: Record<string, string> }> }).mcpServers
      .server!;

  it('writes the URL in args and its token in the entry’s env, warning that it came on the command line', async () => {
    const r = await runCli(['mcp-config', 'cursor', '--live', `${bare}?token=ab12`, '--', 'node', 'server.js']);
    expect(r.code).toBe(0);
    const entry = entryOf(r.out);
    expect(entry.args.join(' ')).toContain(`--live ${bare} --`);
    expect(entry.args.join(' ')).not.toContain('ab12');
    expect(entry.env).toEqual({ [LIVE]: 'ab12' });
    expect(r.err).toBe(`mcp-config: ${LIVE_WARNING}`);
  });

  it('takes the token from its own environment, and writes a config file that holds it for the user alone', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'mcp-config-token-')), 'mcp.json');
    writeFileSync(config, '{}\n', { mode: 0o644 });
    const r = await runCliWithEnv({ [LIVE]: 'cd34' }, () =>
      runCli(['mcp-config', 'openai-agents', '--live', bare, '--write', '--config', config, '--', 'node', 'server.js']),
    );
    expect(r.code).toBe(0);
    const written = entryOf(readFileSync(config, 'utf8'));
    expect(written.env).toEqual({ [LIVE]: 'cd34' });
    expect(written.args).not.toContain(expect.stringContaining('cd34'));
    expect((statSync(config).mode & 0o777).toString(8)).toBe('600');
    expect(r.err).not.toContain('warning');
  });

  it('refuses a URL whose token is not the one in the environment, printing nothing', async () => {
    const r = await runCliWithEnv({ [LIVE]: 'one' }, () =>
      runCli(['mcp-config', 'cursor', '--live', `${bare}?token=two`, '--', 'node', 'server.js']),
    );
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain("--live: the URL's token and ASSISTANT_SAFETY_LIVE_TOKEN differ");
  });
});

describe('hook commands with --live', () => {
  it('stream to the hub with the token in ASSISTANT_SAFETY_LIVE_TOKEN, which their command line never shows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-token-env-'));
    const e = events('token-from-env');
    const args = ['--live', bare, '--deadline-ms', '600000'];
    // A hook process as the agent starts it, held while it waits for its event on stdin.
    const child = spawn(process.execPath, [bundle, ...args], {
      env: { ...process.env, ASSISTANT_SAFETY_STATE_DIR: dir, [LIVE]: server.token },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    expect(cmdlineOf(child.pid!)).toContain(`--live ${bare}`);
    expect(cmdlineOf(child.pid!)).not.toContain(server.token);
    child.stdin.end(JSON.stringify(e.pre('Read', read(), 'r1')));
    expect(await closed).toBe(0);
    expect(stderr).toBe('');

    const denied = await runHook(bundle, dir, e.pre('Edit', edit('/home/dev/repo/src/other.ts'), 'w1'), args, {
      [LIVE]: server.token,
    });
    expect(decisionOf(denied)).toEqual({ decision: 'deny', reasonCode: 'NO_VALIDATED_TARGET' }); // the read never ended
    expect(denied.stderr).toBe('');
    await until(
      () =>
        (server.hub.entriesOf('token-from-env') ?? []).some(
          (x) => x.call.type === 'beginToolCall' && (x.call as { id: string }).id === 'w1',
        ),
      30_000,
    );
  }, 60_000);

  it('still take the token in the URL, and warn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-token-url-'));
    const run = await runHook(bundle, dir, events('token-in-url').pre('Read', read(), 'r1'), ['--live', server.url]);
    expect(decisionOf(run)).toEqual({ decision: 'allow' });
    expect(run.stderr.trim()).toBe(`assistant-safety hook: ${LIVE_WARNING}`);
    await until(() => (server.hub.entriesOf('token-in-url')?.length ?? 0) > 0, 30_000);
  }, 60_000);

  it('refuse the call when the URL’s token is not the one in the environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-token-differ-'));
    const run = await runHook(
      bundle,
      dir,
      events('token-differ').pre('Read', read(), 'r1'),
      ['--live', `${bare}?token=two`],
      {
        [LIVE]: 'one',
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "assistant-safety hook: --live: the URL's token and ASSISTANT_SAFETY_LIVE_TOKEN differ; give the token once, in ASSISTANT_SAFETY_LIVE_TOKEN, and the URL without ?token=",
    );
  }, 60_000);
});

describe('hook install --live', () => {
  it('writes the hook command without the token and says where the agent takes it from', async () => {
    const settings = join(mkdtempSync(join(tmpdir(), 'hook-install-token-')), 'settings.json');
    const r = await runCli([
      'hook',
      'install',
      'claude-code',
      '--command',
      'hookcmd',
      '--settings',
      settings,
      '--',
      '--live',
      `${bare}?token=ab12`,
    ]);
    expect(r.code).toBe(0);
    const written = readFileSync(settings, 'utf8');
    expect(written).toContain(`hookcmd --live ${bare}`);
    expect(written).not.toContain('ab12');
    expect(r.err).toContain(
      "hook install: --live's token is not written into the hook command (a command line is readable by other local users): start the agent with ASSISTANT_SAFETY_LIVE_TOKEN in its environment",
    );
  });
});
