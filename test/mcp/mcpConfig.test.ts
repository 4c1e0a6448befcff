import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, codeBlocks, connect, fixtureCommand, ROOT, tempDir } from './helpers.js';

/*
 * `assistant-safety mcp-config CLIENT -- COMMAND`: the entry names node and the installed bin by
 * absolute paths, so it starts from any folder (none with node_modules here) and no client ever
 * asks a registry for the package. --write merges it into the client's file, keeping the rest.
 */

function mcpConfig(args: string[], options: { cwd: string; env?: Record<string, string> }) {
  const [node, ...rest] = cli(['mcp-config', ...args]);
  return new Promise<{ code: number; out: string; err: string }>((resolve) =>
    execFile(node!, rest, { cwd: options.cwd, env: { ...process.env, ...options.env } }, (error, out, err) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    ),
  );
}

type Entry = { type?: string; command: string; args: string[] };
const CLIENT_KEYS = {
  'claude-desktop': 'mcpServers',
  cursor: 'mcpServers',
  vscode: 'servers',
  'openai-agents': 'mcpServers',
};
const docs = readFileSync(join(ROOT, 'docs', 'mcp-gateway.md'), 'utf8');

describe('assistant-safety mcp-config', () => {
  it.each(Object.entries(CLIENT_KEYS))(
    '%s: should write the entry next to what the file held, with absolute paths, and read it back',
    async (client, key) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'rules.json'), '{ "tools": {} }'); // mcp-config checks it as the gateway loads it
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ theme: 'dark', [key]: { other: { command: 'other-server' } } }));
      const server = fixtureCommand(dir);
      const written = await mcpConfig(
        [client, '--name', 'fixture', '--rules', 'rules.json', '--write', '--config', file, '--', ...server],
        { cwd: dir },
      );
      expect(written.code, written.err).toBe(0);
      const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, Entry>>;
      expect(config.theme).toBe('dark');
      expect(config[key]!.other).toEqual({ command: 'other-server' });
      const entry = config[key]!.fixture!;
      expect(JSON.parse(written.out)).toEqual({ [key]: { fixture: entry } });
      expect(entry.type).toBe(client === 'vscode' ? 'stdio' : undefined);
      expect(entry.command).toBe(process.execPath);
      const at = entry.args.indexOf('mcp-gateway');
      const bin = entry.args[at - 1]!;
      expect(isAbsolute(bin) && existsSync(bin)).toBe(true);
      expect(entry.args.slice(at)).toEqual(['mcp-gateway', '--rules', join(dir, 'rules.json'), '--', ...server]);

      // A different entry of the same name is not replaced without --force.
      const again = await mcpConfig([client, '--name', 'fixture', '--write', '--config', file, '--', 'x'], {
        cwd: dir,
      });
      expect(again.code).toBe(2);
      expect(again.err).toContain('exists and differs');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(config);
    },
    60_000,
  );

  it('should start the gateway from a folder with no node_modules, as a client would from the entry', async () => {
    const dir = tempDir();
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    const { out } = await mcpConfig(['claude-desktop', '--name', 'fixture', '--', ...fixtureCommand(dir)], {
      cwd: dir,
    });
    const entry = (JSON.parse(out) as { mcpServers: Record<string, Entry> }).mcpServers.fixture!;
    const gateway = await connect([entry.command, ...entry.args], dir);
    const { tools } = await gateway.client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_status');
    await gateway.client.close();
  }, 60_000);

  it("should write to each client's own file when no --config is given", async () => {
    const dir = tempDir();
    const home = join(dir, 'home');
    mkdirSync(home);
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    for (const client of ['claude-desktop', 'cursor', 'vscode'])
      expect((await mcpConfig([client, '--write', '--', 'my-server'], { cwd: dir, env })).code).toBe(0);
    const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, Entry>>;
    expect(Object.keys(read(join(home, '.config', 'Claude', 'claude_desktop_config.json')).mcpServers!)).toEqual([
      'my-server',
    ]);
    expect(Object.keys(read(join(home, '.cursor', 'mcp.json')).mcpServers!)).toEqual(['my-server']);
    expect(read(join(dir, '.vscode', 'mcp.json')).servers!['my-server']!.type).toBe('stdio');
    const agents = await mcpConfig(['openai-agents', '--write', '--', 'my-server'], { cwd: dir, env });
    expect(agents.code).toBe(2);
    expect(agents.err).toContain('openai-agents keeps no config file: give --config FILE');
  }, 60_000);

  it('should print the entries docs/mcp-gateway.md shows, for each client', async () => {
    const dir = tempDir();
    const shown = codeBlocks(docs, 'json').map((b) => JSON.parse(b) as Record<string, Record<string, Entry>>);
    const server = ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'];
    // The rules file must exist (it is checked); the docs show it under /home/me/agent.
    const rules = join(dir, 'safety-rules.json');
    writeFileSync(rules, '{ "tools": {} }');
    const options = ['--rules', rules, '--record', '/home/me/agent/recordings/files.jsonl'];
    for (const [client, key] of Object.entries(CLIENT_KEYS)) {
      const { out, code, err } = await mcpConfig([client, '--name', 'files', ...options, '--', ...server], {
        cwd: dir,
      });
      expect(code, err).toBe(0);
      const entry = (JSON.parse(out) as Record<string, Record<string, Entry>>)[key]!.files!;
      // The docs show an installed package: node and the bin script by their absolute paths.
      const at = entry.args.indexOf('mcp-gateway');
      const asInstalled = {
        ...entry,
        command: '/usr/local/bin/node',
        args: [
          '/home/me/agent/node_modules/assistant-safety/dist/src/cli/bin.js',
          ...entry.args.slice(at).map((a) => (a === rules ? '/home/me/agent/safety-rules.json' : a)),
        ],
      };
      expect(
        shown.some((block) => JSON.stringify(block[key]?.files) === JSON.stringify(asInstalled)),
        client,
      ).toBe(true);
    }
  }, 60_000);
});
