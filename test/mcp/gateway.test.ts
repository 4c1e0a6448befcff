import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parseRecording, replayRecording } from 'assistant-safety';
import {
  cli,
  codeBlocks,
  connect,
  envelopeOf,
  fixtureCommand,
  ROOT,
  runsOf,
  tempDir,
  until,
  type Connected,
} from './helpers.js';

/*
 * End to end, as a user runs it: the config snippet of docs/mcp-gateway.md
 * (Claude Desktop's), with the fixture MCP server after `--`, started by the
 * SDK's own client over stdio.
 */

const docs = readFileSync(join(ROOT, 'docs', 'mcp-gateway.md'), 'utf8');

/** The gateway's arguments from the Claude Desktop snippet, with its rules and recording in `dir` and the fixture as the server. */
function argsFromDocs(dir: string, rules?: unknown): string[] {
  const config = JSON.parse(codeBlocks(docs, 'json')[0]!) as {
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  const [entry] = Object.values(config.mcpServers);
  // node and the installed bin script by absolute paths (test/mcp/mcpConfig.test.ts holds them to mcp-config's output).
  expect(entry!.command).toBe('/usr/local/bin/node');
  const args = [...entry!.args];
  expect(args[0]).toMatch(/^\/.*\/assistant-safety\/dist\/src\/cli\/bin\.js$/);
  expect(args[1]).toBe('mcp-gateway');
  const dashes = args.indexOf('--');
  const options = args.slice(1, dashes);
  const at = (flag: string) => options.indexOf(flag) + 1;
  expect(at('--rules')).toBeGreaterThan(0);
  expect(at('--record')).toBeGreaterThan(0);
  writeFileSync(join(dir, 'rules.json'), JSON.stringify(rules ?? { tools: {} }));
  options[at('--rules')] = join(dir, 'rules.json');
  options[at('--record')] = join(dir, 'recording.jsonl');
  return cli([...options, '--', ...fixtureCommand(dir)]);
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<{
    isError?: boolean;
    content: Array<{ type: string; text: string }>;
    structuredContent?: unknown;
  }>;

describe('mcp-gateway: the safety machine in front of a real MCP server', () => {
  let dir: string;
  let gateway: Connected;
  let direct: Connected;

  beforeAll(async () => {
    dir = tempDir();
    mkdirSync(join(dir, 'direct'));
    [gateway, direct] = await Promise.all([
      connect(argsFromDocs(dir), dir),
      connect(fixtureCommand(join(dir, 'direct')), ROOT),
    ]);
  }, 60_000);

  afterAll(async () => {
    await direct?.client.close();
    await gateway?.client.close();
  });

  it('should list exactly the tools the server lists (names, schemas, annotations)', async () => {
    const [through, straight] = await Promise.all([gateway.client.listTools(), direct.client.listTools()]);
    expect(through).toEqual(straight);
    expect(through.tools.map((t) => t.name)).toContain('lookup_host');
  });

  it('should block a write before any read with NO_VALIDATED_TARGET, and the server never runs it', async () => {
    const result = await call(gateway.client, 'restart_service', { name: 'web' });
    expect(result.isError).toBe(true);
    const envelope = envelopeOf(result);
    expect(envelope.error).toBe('FSM_BLOCKED');
    expect(envelope.details).toMatchObject({
      reasonCode: 'NO_VALIDATED_TARGET',
      toolName: 'restart_service',
      toolKind: 'write',
    });
    expect(result.structuredContent).toEqual(envelope);
    expect(runsOf(dir).map((r) => r.tool)).not.toContain('restart_service');
  });

  it('should run a read, then a write', async () => {
    const read = await call(gateway.client, 'find_service', { name: 'web' });
    expect(read.isError).toBeFalsy();
    expect(read.content[0]!.text).toBe('found service web');
    const write = await call(gateway.client, 'restart_service', { name: 'web' });
    expect(write.isError).toBeFalsy();
    expect(write.content[0]!.text).toBe('restarted web');
    expect(runsOf(dir).map((r) => r.tool)).toEqual(['find_service', 'restart_service']);
  });

  it('should refuse an unannotated tool as an unverified write', async () => {
    const result = await call(gateway.client, 'lookup_host', { host: 'web' });
    expect(result.isError).toBe(true);
    expect(envelopeOf(result).details).toMatchObject({ reasonCode: 'UNVERIFIED_WRITE', toolKind: 'write' });
    expect(runsOf(dir).map((r) => r.tool)).not.toContain('lookup_host');
  });

  it('should return a tool that throws as an error result', async () => {
    const result = await call(gateway.client, 'explode');
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain('the fixture tool exploded');
    expect(runsOf(dir).map((r) => r.tool)).toContain('explode');
  });

  it('should let a later read verify the write, so the next write runs', async () => {
    const read = await call(gateway.client, 'get_status', { name: 'web' });
    expect(read.isError).toBeFalsy();
    const write = await call(gateway.client, 'restart_service', { name: 'web' });
    expect(write.isError).toBeFalsy();
    expect(runsOf(dir).filter((r) => r.tool === 'restart_service')).toHaveLength(2);
  });

  it('should pass resources and prompts through', async () => {
    const resource = await gateway.client.readResource({ uri: 'fixture://notes' });
    expect(resource.contents[0]).toMatchObject({ uri: 'fixture://notes', text: 'the fixture notes' });
    const prompt = await gateway.client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'Hello, Ada' });
  });

  it('should pass progress notifications and a cancellation through', async () => {
    // The tool reports progress as it starts, then waits; the progress is what tells the test to cancel.
    // (The SDK's client handles notifications a tick after responses, so progress is only seen while a call runs.)
    const controller = new AbortController();
    const progress: number[] = [];
    const pending = gateway.client.callTool({ name: 'slow_read', arguments: { ms: 60_000 } }, undefined, {
      signal: controller.signal,
      onprogress: (p) => {
        progress.push(p.progress);
        controller.abort('the test cancels');
      },
    });
    await expect(pending).rejects.toThrow();
    expect(progress).toEqual([1]);
    await until(() => runsOf(dir).some((r) => r.tool === 'slow_read' && r.event === 'cancelled'));
  });

  it('should run calls concurrently but never two writes at once, and hold a cancelled write in flight', async () => {
    // The last write is verified first (the cancelled read before gave no evidence).
    expect((await call(gateway.client, 'get_status', { name: 'web' })).isError).toBeFalsy();
    const controller = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = gateway.client.callTool({ name: 'slow_write', arguments: { ms: 60_000 } }, undefined, {
      signal: controller.signal,
      onprogress: () => started(),
    });
    const slowOutcome = slow.then(
      (result) => `answered: ${JSON.stringify(result)}`,
      () => 'cancelled',
    );
    // Either the write runs (and reports progress) or the test fails now with what came back.
    await Promise.race([running, slowOutcome.then((outcome) => expect.fail(`slow_write did not run: ${outcome}`))]);
    const [second, read] = await Promise.all([
      call(gateway.client, 'restart_service', { name: 'web' }),
      call(gateway.client, 'get_status', { name: 'web' }),
    ]);
    expect(envelopeOf(second).details).toMatchObject({ reasonCode: 'WRITE_IN_FLIGHT' });
    expect(read.isError).toBeFalsy(); // reads run beside a write in flight
    controller.abort('the test cancels');
    expect(await slowOutcome).toBe('cancelled');
    await until(() => runsOf(dir).some((r) => r.tool === 'slow_write' && r.event === 'cancelled'));
    // The server sends no answer to a cancelled call, so the gateway cannot know it stopped:
    // the write stays in flight for the grace period (test/mcp/cancelledWrite.test.ts goes on).
    const next = await call(gateway.client, 'restart_service', { name: 'web' });
    expect(envelopeOf(next).details).toMatchObject({ reasonCode: 'WRITE_IN_FLIGHT' });
  });

  it('should write a recording that replays with no divergence once the client disconnects', async () => {
    await gateway.client.close();
    expect(await gateway.exited).toBe(0);
    const entries = parseRecording(readFileSync(join(dir, 'recording.jsonl'), 'utf8'));
    const blocked = entries.filter((e) => e.decision === 'blocked').map((e) => e.reasonCode);
    expect(blocked).toEqual(['NO_VALIDATED_TARGET', 'UNVERIFIED_WRITE', 'WRITE_IN_FLIGHT', 'WRITE_IN_FLIGHT']);
    // The cancelled write the server never answered ended with the session: an unknown outcome.
    expect(entries.at(-1)).toMatchObject({ call: { type: 'endToolCall', ok: false, unknown: true } });
    expect(entries.some((e) => e.call.type === 'completeVerification')).toBe(true);
    const replay = replayRecording(entries);
    expect(replay.divergences).toEqual([]);
  });
});

describe('mcp-gateway --rules', () => {
  it('should run the unannotated tool when the rules file maps it to read', async () => {
    const dir = tempDir();
    const gateway = await connect(argsFromDocs(dir, { tools: { lookup_host: 'read' } }), dir);
    try {
      const result = await call(gateway.client, 'lookup_host', { host: 'web' });
      expect(result.isError).toBeFalsy();
      expect(result.content[0]!.text).toBe('web is 10.0.0.7');
      expect(runsOf(dir).map((r) => r.tool)).toEqual(['lookup_host']);
    } finally {
      await gateway.client.close();
    }
  }, 60_000);

  it('should refuse to start with a rules file that is wrong, naming the path inside it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ tools: { lookup_host: 'reed' } }));
    const { execFile } = await import('node:child_process');
    const [node, ...args] = cli(['mcp-gateway', '--rules', join(dir, 'bad.json'), '--', ...fixtureCommand(dir)]);
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile(node!, args, { cwd: dir }, (error, _out, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
      ),
    );
    expect(code).toBe(2);
    expect(stderr).toContain('tools.lookup_host');
    expect(runsOf(dir)).toEqual([]);
  }, 60_000);
});

describe('mcp-gateway when the server dies mid-call', () => {
  it('should answer the call in flight with an error, end it with an unknown outcome in the recording, and exit 1', async () => {
    const dir = tempDir();
    const gateway = await connect(argsFromDocs(dir), dir);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const pending = gateway.client.callTool({ name: 'slow_read', arguments: { ms: 600_000 } }, undefined, {
      onprogress: () => started(),
      timeout: 600_000,
    });
    const outcome = pending.then(
      () => 'answered',
      (e: Error) => e.message,
    );
    await running;
    const pid = Number(readFileSync(join(dir, 'server.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    expect(await outcome).toMatch(/MCP server exited before answering tools\/call \(slow_read\)/);
    expect(await gateway.exited).toBe(1);
    const entries = parseRecording(readFileSync(join(dir, 'recording.jsonl'), 'utf8'));
    const end = entries.find((e) => e.call.type === 'endToolCall');
    expect(end?.call).toMatchObject({ type: 'endToolCall', ok: false, unknown: true });
    expect(replayRecording(entries).divergences).toEqual([]);
  }, 60_000);
});

describe('docs/mcp-gateway.md', () => {
  it('should give every client the same gateway command line as the snippet the tests run', () => {
    const [claude, vscode] = codeBlocks(docs, 'json').map((b) => JSON.parse(b) as Record<string, unknown>);
    const claudeEntry = Object.values(claude!.mcpServers as Record<string, { command: string; args: string[] }>)[0]!;
    const vscodeEntry = Object.values(
      vscode!.servers as Record<string, { type: string; command: string; args: string[] }>,
    )[0]!;
    expect(vscodeEntry).toEqual({ type: 'stdio', command: claudeEntry.command, args: claudeEntry.args });
    const python = codeBlocks(docs, 'python')[0]!;
    expect(python).toContain(`"command": "${claudeEntry.command}"`);
    const args = /"args": (\[[^\]]*\])/.exec(python)?.[1];
    expect(JSON.parse(args!)).toEqual(claudeEntry.args);
  });
});
