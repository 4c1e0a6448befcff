import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { spawnMcpServer, type SpawnMcpServerOptions } from './spawnMcpServer.js';

/**
 * Starts an MCP server over stdio, lists its tools (every page) in the
 * `tools/list` result shape, and stops it. What `assistant-safety classify --
 * COMMAND` classifies.
 *
 * @example
 * const { tools } = await listServerTools('npx', ['-y', '@modelcontextprotocol/server-filesystem', '/tmp']);
 * classifyFromTools({ tools }).explain('read_text_file'); // { kind: 'read', rule: 'annotations', ... }
 */
export async function listServerTools(
  command: string,
  args: readonly string[] = [],
  options: SpawnMcpServerOptions = {},
): Promise<{ tools: Array<{ name: string } & Record<string, unknown>> }> {
  const client = new Client({ name: 'assistant-safety-classify', version: '1' });
  await client.connect(spawnMcpServer(command, args, options));
  try {
    const tools: Array<{ name: string } & Record<string, unknown>> = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { tools };
  } finally {
    await client.close();
  }
}
