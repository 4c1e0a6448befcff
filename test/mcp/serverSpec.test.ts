import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cli, connect, fixtureCommand, tempDir } from './helpers.js';

/*
 * The server after `--`, or with --server-command / --server-arg for tools that keep `--` (the MCP
 * Inspector); an argument that starts with a dash is given as --server-arg=--flag.
 */

async function run(args: string[]) {
  let err = '';
  const code = await main(args, { out: () => undefined, err: (t) => (err += `${t}\n`) });
  return { code, err: err.split('\n')[0] };
}

describe('mcp-gateway: how the server is given', () => {
  it('should hint at -- when the server comes without it', async () => {
    expect(await run(['mcp-gateway', 'npx', '-y', 'srv'])).toEqual({
      code: 2,
      err: 'assistant-safety mcp-gateway: unknown option -y: "npx" looks like the MCP server\'s command: it goes after --: assistant-safety mcp-gateway -- npx -y srv',
    });
    expect(await run(['mcp-gateway', '--rules', 'r.json', 'my-server'])).toEqual({
      code: 2,
      err: 'assistant-safety mcp-gateway: "my-server" looks like the MCP server\'s command: it goes after --: assistant-safety mcp-gateway --rules r.json -- my-server',
    });
    expect((await run(['mcp-gateway'])).err).toContain('the MCP server to run goes after --');
  });

  it('should refuse --server-command together with --, and --server-arg alone', async () => {
    expect((await run(['mcp-gateway', '--server-command', 'a', '--', 'b'])).err).toContain('not both');
    expect((await run(['mcp-gateway', '--server-arg', 'x'])).err).toContain('--server-arg goes with --server-command');
  });

  it('should run the server given by --server-command and --server-arg', async () => {
    const dir = tempDir();
    const [command, ...args] = fixtureCommand(dir);
    const gateway = await connect(
      cli(['mcp-gateway', '--server-command', command!, ...args.map((a) => `--server-arg=${a}`)]),
      dir,
    );
    const { tools } = await gateway.client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_status');
    await gateway.client.close();
    expect(await gateway.exited).toBe(0);
  }, 60_000);
});
